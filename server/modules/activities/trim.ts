import { activities } from '../../../resources/activities.ts';
import { getSettings } from '../../core/settings.ts';
import type { Db } from '../../db/index.ts';
import { asSystem } from '../../engine/system-access.ts';

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
    const n = await asSystem(db).remove(activities, { where: { created_at: { lt: cutoff } }, limit: BATCH });
    removed += n;
    if (n < BATCH) return removed;
  }
}
