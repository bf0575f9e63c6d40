import * as z from 'zod';
import { wireId, wireTime } from './wire.ts';

/**
 * A scheduled task as `v1/system/tasks` answers it (server/modules/tasks/store.ts `toRecord`; read by the
 * tasks page). `next_run_at` is computed from the cron expression (null while the task is disabled).
 */
export const taskRecordSchema = z.object({
  id: wireId,
  name: z.string(),
  handler: z.string(),
  params: z.record(z.string(), z.unknown()),
  cron: z.string(),
  timezone: z.string(),
  state: z.boolean(),
  last_run_at: wireTime.nullable(),
  next_run_at: wireTime.nullable(),
  created_at: wireTime,
  updated_at: wireTime,
});
export type TaskRecord = z.infer<typeof taskRecordSchema>;

/** `GET v1/system/tasks/<id>`: the task and its next five run times. */
export type TaskDetail = TaskRecord & { next_runs: string[] };

/** One run of a task (`GET v1/system/tasks/<id>/runs`), newest first. */
export const taskRunSchema = z.object({
  id: wireId,
  task_id: wireId,
  trigger: z.enum(['cron', 'manual']),
  job_id: z.string().nullable(),
  status: z.enum(['running', 'succeeded', 'failed']),
  started_at: wireTime,
  finished_at: wireTime.nullable(),
  duration_ms: z.number().nullable(),
  result: z.unknown(),
  error: z.string().nullable(),
  triggered_by: wireId.nullable(),
});
export type TaskRun = z.infer<typeof taskRunSchema>;
