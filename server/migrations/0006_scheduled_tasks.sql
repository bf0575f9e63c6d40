-- Scheduled tasks (issue 6): a registered handler plus cron, parameters, time zone and state; pg-boss
-- (schema "pgboss", created by pg-boss itself) holds the schedules and jobs. Hand-written: not an engine
-- resource, the tasks module serves the routes.
CREATE TABLE scheduled_tasks (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  handler text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  cron text NOT NULL,
  timezone text NOT NULL DEFAULT 'UTC',
  state boolean NOT NULL DEFAULT true,
  last_run_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Run history: one row per execution (cron or "run now"), kept with its task.
CREATE TABLE task_runs (
  id bigserial PRIMARY KEY,
  task_id bigint NOT NULL REFERENCES scheduled_tasks (id) ON DELETE CASCADE,
  trigger text NOT NULL CHECK (trigger IN ('cron', 'manual')),
  job_id text,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  duration_ms integer,
  result jsonb,
  error text,
  triggered_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX task_runs_task_started_idx ON task_runs (task_id, started_at DESC);
-- A pg-boss job records one run, even if a second worker ever saw the same job.
CREATE UNIQUE INDEX task_runs_job_idx ON task_runs (job_id);

INSERT INTO scheduled_tasks (name, handler, params, cron, timezone, state) VALUES
  ('Purge expired tokens and codes', 'auth.purge', '{}', '17 * * * *', 'UTC', true),
  ('Trim the activity log', 'activities.trim', '{}', '30 3 * * *', 'UTC', true),
  ('Back up the database', 'database.backup', '{"keep": 7}', '0 2 * * *', 'UTC', false),
  ('Clean temp uploads', 'files.clean_temp', '{"older_than_hours": 24}', '45 * * * *', 'UTC', true);
