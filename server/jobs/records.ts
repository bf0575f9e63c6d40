import type { Db } from '../db/index.ts';
import { BOSS_SCHEMA, isInstalled } from './counts.ts';

// Shared by the jobs page's routes (modules/jobs) and the engine's CSV job routes, so it lives below both.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job on the wire. `progress` is 0-100 (100 once completed); `error` is the failure message only. */
export interface JobRecord {
  id: string;
  queue: string;
  state: string;
  data: unknown;
  output: unknown;
  progress: number | null;
  error: string | null;
  /** Attempts made after the first, and how many are allowed. */
  retry_count: number;
  retry_limit: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

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
