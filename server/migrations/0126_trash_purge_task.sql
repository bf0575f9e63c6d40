-- Issue 36 (part T): the scheduled task that deletes for good what has stayed in the trash longer than the
-- `basic` setting `trash_retention_days` (server/engine/trash-purge.ts).
INSERT INTO scheduled_tasks (name, handler, params, cron, timezone, state) VALUES
  ('Purge the trash', 'trash.purge', '{}', '40 3 * * *', 'UTC', true);
