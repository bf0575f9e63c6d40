import type { Db } from '../../db/index.ts';

/** Jobs per queue by state, e.g. `{ exports: { created: 2, active: 1, completed: 40, failed: 0 } }`. */
export type QueueCounts = Record<string, Record<string, number>>;

/**
 * The job queues' counts for the monitor and the dashboard. The job queues (pg-boss) are built in parallel;
 * until their counting function lands this answers null, which the pages show as "unavailable".
 */
export async function queueCounts(_db: Db): Promise<QueueCounts | null> {
  return null;
}

/** Failed jobs over every queue, or null while the queues are unavailable. */
export function failedJobs(counts: QueueCounts | null): number | null {
  if (!counts) return null;
  return Object.values(counts).reduce((sum, states) => sum + (states.failed ?? 0), 0);
}
