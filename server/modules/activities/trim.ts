import { getSettings } from '../../core/settings.ts';
import type { Db } from '../../db/index.ts';

/** Rows removed per statement, so one trim never holds a huge transaction. */
const BATCH = 5000;

/**
 * Deletes activity rows older than `activity_retention_days` (basic settings) and returns how many went.
 * Safe to run from several servers at once; the scheduled-tasks issue runs it daily. Example:
 * `const removed = await trimActivityLog(db)`.
 */
export async function trimActivityLog(db: Db, { now = new Date() }: { now?: Date } = {}): Promise<number> {
  const { activity_retention_days: days } = await getSettings(db, 'basic');
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  let removed = 0;
  for (;;) {
    const { rows } = await db.query<{ n: string }>(
      `WITH gone AS (
         DELETE FROM activity_logs WHERE id IN (
           SELECT id FROM activity_logs WHERE created_at < $1 ORDER BY id LIMIT ${BATCH}
         ) RETURNING 1
       ) SELECT count(*) AS n FROM gone`,
      [cutoff],
    );
    const n = Number(rows[0]!.n);
    removed += n;
    if (n < BATCH) return removed;
  }
}
