import * as z from 'zod';
import { wireTime } from '../../schemas/wire.ts';
import type { Paged } from '../../schemas/pagination.ts';
import { paged } from '../core/paged.ts';
import type { Db, Queryable } from '../db/index.ts';
import { BOSS_SCHEMA, isInstalled, type JobState } from './counts.ts';

// Shared by the jobs page's routes (modules/jobs) and the engine's CSV job routes, so it lives below both.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job on the wire. `progress` is 0-100 (100 once completed); `error` is the failure message only. */
export const jobRecordSchema = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.string(),
  data: z.unknown(),
  output: z.unknown(),
  progress: z.number().nullable(),
  error: z.string().nullable(),
  /** Attempts made after the first, and how many are allowed. */
  retry_count: z.number().int(),
  retry_limit: z.number().int(),
  created_at: wireTime,
  started_at: wireTime.nullable(),
  completed_at: wireTime.nullable(),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

export const JOB_COLUMNS = `id::text, name, state::text AS state, data, output, retry_count, retry_limit,
  created_on, started_on, completed_on`;

/** One job of a queue, or null when the id is not a UUID, pg-boss is not installed or no such job. */
export async function findJob(db: Db, queue: string, id: string): Promise<JobRecord | null> {
  if (!UUID.test(id) || !(await isInstalled(db))) return null;
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${JOB_COLUMNS} FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND id = $2::uuid`,
    [queue, id],
  );
  return rows[0] ? toJob(rows[0]) : null;
}

/** One page of a queue's jobs, newest first, optionally of one state (`state` is one of JOB_STATES). */
export async function listJobs(
  db: Queryable,
  { queue, state, page, size }: { queue: string; state?: JobState; page: number; size: number },
): Promise<Paged<JobRecord>> {
  const filter = state ? `AND state = $2::${BOSS_SCHEMA}.job_state` : '';
  const params: unknown[] = state ? [queue, state] : [queue];
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${JOB_COLUMNS} FROM ${BOSS_SCHEMA}.job WHERE name = $1 ${filter}
      ORDER BY created_on DESC, id LIMIT ${size} OFFSET ${(page - 1) * size}`,
    params,
  );
  const count = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${BOSS_SCHEMA}.job WHERE name = $1 ${filter}`,
    params,
  );
  return paged(rows.map(toJob), { total: Number(count.rows[0]!.n), page, size });
}

export function toJob(row: Record<string, unknown>): JobRecord {
  const output = (row.output ?? null) as Record<string, unknown> | null;
  const state = String(row.state);
  const progressOf = () => {
    if (state === 'completed') return 100;
    const p = output && typeof output === 'object' ? output.progress : undefined;
    return typeof p === 'number' ? p : null;
  };
  // pg-boss stores a failure as the serialized error; only its message leaves the server (no stack).
  const error =
    state === 'failed' || state === 'retry'
      ? String((output && typeof output === 'object' && output.message) || 'failed')
      : null;
  return {
    id: String(row.id),
    queue: String(row.name),
    state,
    data: row.data ?? null,
    output: error ? null : output,
    progress: progressOf(),
    error,
    retry_count: Number(row.retry_count),
    retry_limit: Number(row.retry_limit),
    created_at: iso(row.created_on)!,
    started_at: iso(row.started_on),
    completed_at: iso(row.completed_on),
  };
}

function iso(value: unknown): string | null {
  return value ? new Date(value as string).toISOString() : null;
}
