import { isSoftDelete, type Resource } from '../../resources/define.ts';
import { getSettings } from '../core/settings.ts';
import type { Db } from '../db/index.ts';
import { ident } from './schema/fields.ts';

/** Rows purged per statement, so one run never holds a huge transaction. */
const BATCH = 1000;

/**
 * Deletes for good the records that went to the trash more than `trash_retention_days` (basic settings) ago,
 * in every soft-delete resource of `registry`, oldest first; returns how many went per resource. A row a
 * foreign key still holds (a trashed record of another resource referring to it, RESTRICT) stays until its
 * holder goes: each row is deleted by a statement of its own, so one held row stops nothing else.
 * Safe to run from several servers at once (the scheduled task `trash.purge`). Example:
 * `const purged = await purgeTrash(db, resources)`.
 */
export async function purgeTrash(
  db: Db,
  registry: readonly Resource[],
  { now = new Date() }: { now?: Date } = {},
): Promise<Record<string, number>> {
  const { trash_retention_days: days } = await getSettings(db, 'basic');
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const purged: Record<string, number> = {};
  for (const resource of registry.filter(isSoftDelete)) {
    const table = ident(resource.table);
    // A resource served by a module whose migrations this database lacks (a test fixture) has no table here.
    const { rows: found } = await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [
      table,
    ]);
    if (!found[0]?.t) continue;
    let count = 0;
    let after = '0';
    for (;;) {
      const { rows } = await db.query<{ id: string }>(
        `SELECT "id"::text AS id FROM ${table} WHERE "deleted_at" < $1 AND "id" > $2 ORDER BY "id" LIMIT ${BATCH}`,
        [cutoff, after],
      );
      for (const { id } of rows) {
        try {
          const result = await db.query(`DELETE FROM ${table} WHERE "id" = $1 AND "deleted_at" < $2`, [
            id,
            cutoff,
          ]);
          count += result.rowCount;
        } catch {
          // Still held by a record of another resource (in the trash too): purged after that one.
        }
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    purged[resource.name] = count;
  }
  return purged;
}
