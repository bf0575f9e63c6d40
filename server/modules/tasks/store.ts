import type { TaskRecord, TaskRun as RunRecord } from '../../../schemas/tasks.ts';
import type { Queryable } from '../../db/index.ts';
import { nextRuns } from './cron.ts';

export interface TaskRow {
  id: string;
  name: string;
  handler: string;
  params: Record<string, unknown>;
  cron: string;
  timezone: string;
  state: boolean;
  last_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type TaskInput = Pick<TaskRow, 'name' | 'handler' | 'params' | 'cron' | 'timezone' | 'state'>;

const COLUMNS = 'id, name, handler, params, cron, timezone, state, last_run_at, created_at, updated_at';

/** The wire form; `next_run_at` is computed from the cron expression (null while disabled). */
export function toRecord(row: TaskRow): TaskRecord {
  return {
    id: String(row.id),
    name: row.name,
    handler: row.handler,
    params: row.params ?? {},
    cron: row.cron,
    timezone: row.timezone,
    state: row.state,
    last_run_at: iso(row.last_run_at),
    next_run_at: row.state ? (safeNextRuns(row.cron, row.timezone, 1)[0] ?? null) : null,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function safeNextRuns(cron: string, timezone: string, count: number): string[] {
  try {
    return nextRuns(cron, timezone, count);
  } catch {
    return [];
  }
}

export async function listTaskRows(
  db: Queryable,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ rows: TaskRow[]; total: number }> {
  const { rows } = await db.query<TaskRow>(
    `SELECT ${COLUMNS} FROM scheduled_tasks ORDER BY id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM scheduled_tasks');
  return { rows, total: Number(count.rows[0]!.n) };
}

export async function allTaskRows(db: Queryable): Promise<TaskRow[]> {
  return (await db.query<TaskRow>(`SELECT ${COLUMNS} FROM scheduled_tasks ORDER BY id`)).rows;
}

export async function findTaskRow(db: Queryable, id: string, forUpdate = false): Promise<TaskRow | null> {
  if (!/^\d{1,19}$/.test(id)) return null;
  const { rows } = await db.query<TaskRow>(
    `SELECT ${COLUMNS} FROM scheduled_tasks WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function insertTask(db: Queryable, input: TaskInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO scheduled_tasks (name, handler, params, cron, timezone, state)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6) RETURNING id`,
    [input.name, input.handler, JSON.stringify(input.params), input.cron, input.timezone, input.state],
  );
  return String(rows[0]!.id);
}

export async function updateTask(db: Queryable, id: string, input: TaskInput): Promise<void> {
  await db.query(
    `UPDATE scheduled_tasks SET name = $2, handler = $3, params = $4::jsonb, cron = $5, timezone = $6,
            state = $7, updated_at = now() WHERE id = $1`,
    [id, input.name, input.handler, JSON.stringify(input.params), input.cron, input.timezone, input.state],
  );
}

export async function deleteTask(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM scheduled_tasks WHERE id = $1', [id]);
}

/**
 * Opens a run row; null when this pg-boss job already has a run that did not fail (a duplicate delivery).
 * A failed job retried from the job queues page reopens its row.
 */
export async function openRun(
  db: Queryable,
  {
    taskId,
    trigger,
    jobId,
    userId,
    node = null,
  }: {
    taskId: string;
    trigger: string;
    jobId: string | null;
    userId: string | null;
    /** The node running it in a request (no job): closed if that node dies (closeStrandedRuns). */
    node?: string | null;
  },
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO task_runs (task_id, trigger, job_id, triggered_by, node) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (job_id) DO UPDATE SET status = 'running', started_at = now(), finished_at = NULL,
       duration_ms = NULL, result = NULL, error = NULL
     WHERE task_runs.status = 'failed'
     RETURNING id`,
    [taskId, trigger, jobId, userId, node],
  );
  await db.query('UPDATE scheduled_tasks SET last_run_at = now() WHERE id = $1', [taskId]);
  return rows[0] ? String(rows[0].id) : null;
}

export async function closeRun(
  db: Queryable,
  runId: string,
  outcome: { status: 'succeeded' | 'failed'; result?: unknown; error?: string },
): Promise<void> {
  await db.query(
    `UPDATE task_runs SET status = $2, finished_at = now(),
            duration_ms = GREATEST(0, (EXTRACT(EPOCH FROM (now() - started_at)) * 1000)::int),
            result = $3::jsonb, error = $4 WHERE id = $1`,
    [
      runId,
      outcome.status,
      outcome.result === undefined ? null : JSON.stringify(outcome.result),
      outcome.error?.slice(0, 2000) ?? null,
    ],
  );
}

/**
 * Settles the run of a task job whose server died (issue 28, item 6): a run still `running` is closed as
 * failed with `error` ('failed'); a run that had finished keeps its outcome ('succeeded' when it succeeded);
 * no run at all is 'none'. The task never runs again for that job.
 */
export async function settleInterruptedRun(
  db: Queryable,
  jobId: string,
  error: string,
): Promise<{ status: 'succeeded' | 'failed' | 'none'; runId: string | null }> {
  const closed = await db.query<{ id: string }>(
    `UPDATE task_runs SET status = 'failed', finished_at = now(),
            duration_ms = GREATEST(0, (EXTRACT(EPOCH FROM (now() - started_at)) * 1000)::int), error = $2
      WHERE job_id = $1 AND status = 'running' RETURNING id`,
    [jobId, error.slice(0, 2000)],
  );
  if (closed.rows[0]) return { status: 'failed', runId: String(closed.rows[0].id) };
  const { rows } = await db.query<{ id: string; status: string }>(
    'SELECT id, status FROM task_runs WHERE job_id = $1',
    [jobId],
  );
  const run = rows[0];
  if (!run) return { status: 'none', runId: null };
  return { status: run.status === 'succeeded' ? 'succeeded' : 'failed', runId: String(run.id) };
}

/**
 * Closes as failed the runs made in a request (no job) whose server stopped before they finished: the node
 * they name has not beaten for `goneAfterSeconds` (or has no row any more) and the run is older than that.
 * A job's run is settled by the job's reaper (server/jobs/orphans.ts) instead. Called where runs are read and
 * by the scheduler's sync, so it needs no timer of its own on a JOBS=0 server. Answers how many it closed.
 */
export async function closeStrandedRuns(
  db: Queryable,
  { me, goneAfterSeconds, error }: { me: string; goneAfterSeconds: number; error: string },
): Promise<number> {
  const { rows } = await db.query(
    `UPDATE task_runs r SET status = 'failed', finished_at = now(),
            duration_ms = GREATEST(0, (EXTRACT(EPOCH FROM (now() - r.started_at)) * 1000)::int), error = $3
      WHERE r.status = 'running' AND r.job_id IS NULL AND r.node IS NOT NULL AND r.node <> $1
        AND r.started_at < now() - make_interval(secs => $2)
        AND NOT EXISTS (SELECT 1 FROM cluster_nodes n
                         WHERE n.id = r.node AND n.last_seen >= now() - make_interval(secs => $2))
      RETURNING r.id`,
    [me, goneAfterSeconds, error.slice(0, 2000)],
  );
  return rows.length;
}

export async function listRuns(
  db: Queryable,
  taskId: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ rows: RunRecord[]; total: number }> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT id, task_id, trigger, job_id, status, started_at, finished_at, duration_ms, result, error,
            triggered_by FROM task_runs WHERE task_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [taskId, limit, offset],
  );
  const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM task_runs WHERE task_id = $1', [
    taskId,
  ]);
  return { rows: rows.map(toRun), total: Number(count.rows[0]!.n) };
}

function toRun(row: Record<string, unknown>): RunRecord {
  return {
    id: String(row.id),
    task_id: String(row.task_id),
    trigger: row.trigger as RunRecord['trigger'],
    job_id: (row.job_id as string | null) ?? null,
    status: row.status as RunRecord['status'],
    started_at: iso(row.started_at as Date)!,
    finished_at: iso(row.finished_at as Date | null),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    result: row.result ?? null,
    error: (row.error as string | null) ?? null,
    triggered_by: row.triggered_by == null ? null : String(row.triggered_by),
  };
}

function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString();
}
