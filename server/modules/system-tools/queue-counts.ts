import type { Db } from '../../db/index.ts';
import { isInstalled, queueCountsByName } from '../../jobs/counts.ts';

/** Jobs per queue by state, e.g. `{ exports: { created: 2, active: 1, completed: 40, failed: 0, total: 43 } }`. */
export type QueueCounts = Record<string, Record<string, number>>;

/**
 * The job queues' counts (pg-boss, server/jobs) for the monitor and the dashboard; null while the queues are
 * unavailable (pg-boss has not created its schema yet, or reading fails), which the pages show as such.
 */
export async function queueCounts(db: Db): Promise<QueueCounts | null> {
  try {
    if (!(await isInstalled(db))) return null;
    return await queueCountsByName(db);
  } catch {
    return null;
  }
}

/** Failed jobs over every queue, or null while the queues are unavailable. */
export function failedJobs(counts: QueueCounts | null): number | null {
  if (!counts) return null;
  return Object.values(counts).reduce((sum, states) => sum + (states.failed ?? 0), 0);
}
