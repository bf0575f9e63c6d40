import type { Queryable } from '../db/index.ts';

/** The PostgreSQL schema holding pg-boss's tables. */
export const BOSS_SCHEMA = 'pgboss';

/** pg-boss's job states, in its own order. */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface QueueCounts {
  name: string;
  /** Jobs per state (every state present, 0 when none), plus `total`. */
  counts: Record<JobState, number> & { total: number };
}

/** pg-boss's own queues (cron relay), hidden from people. */
export const isInternalQueue = (name: string) => name.startsWith('__pgboss__');

/**
 * Job counts by state for every queue, read straight from the database, so any server answers (whether or
 * not it runs jobs itself); `[]` before pg-boss has created its schema. Completed jobs count until pg-boss
 * archives them (12 h). For the monitor and dashboard. Example: `const queues = await queueCounts(db)`.
 */
export async function queueCounts(db: Queryable): Promise<QueueCounts[]> {
  if (!(await isInstalled(db))) return [];
  const { rows } = await db.query<{ name: string; state: JobState | null; n: string }>(
    `SELECT q.name, j.state::text AS state, count(j.id) AS n
       FROM ${BOSS_SCHEMA}.queue q LEFT JOIN ${BOSS_SCHEMA}.job j ON j.name = q.name
      GROUP BY q.name, j.state ORDER BY q.name`,
  );
  const byName = new Map<string, QueueCounts>();
  for (const row of rows) {
    if (isInternalQueue(row.name)) continue;
    let entry = byName.get(row.name);
    if (!entry) {
      entry = { name: row.name, counts: { ...emptyCounts() } };
      byName.set(row.name, entry);
    }
    if (row.state) {
      entry.counts[row.state] = Number(row.n);
      entry.counts.total += Number(row.n);
    }
  }
  return [...byName.values()];
}

/** The same counts keyed by queue name: `{ 'task-1': { created: 0, ..., failed: 2, total: 9 } }`. */
export async function queueCountsByName(
  db: Queryable,
): Promise<Record<string, Record<JobState, number> & { total: number }>> {
  return Object.fromEntries((await queueCounts(db)).map((q) => [q.name, q.counts]));
}

/** Whether pg-boss's schema exists in this database. */
export async function isInstalled(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [
    `${BOSS_SCHEMA}.queue`,
  ]);
  return rows[0]?.t != null;
}

function emptyCounts(): Record<JobState, number> & { total: number } {
  return { created: 0, retry: 0, active: 0, completed: 0, cancelled: 0, failed: 0, total: 0 };
}
