import type { Queryable } from '../db/index.ts';

/**
 * Which of `keys` an asset row still refers to (`assets.storage_key`, an engine-owned table): the rest are
 * stored files nothing points at. Used by the orphan sweep of the `files.clean_temp` task
 * (server/storage/orphans.ts). Example: `const kept = await referencedStorageKeys(db, ['2026/11/ab.png'])`.
 */
export async function referencedStorageKeys(db: Queryable, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await db.query<{ storage_key: string }>(
    'SELECT DISTINCT storage_key FROM assets WHERE storage_key = ANY($1::text[])',
    [[...keys]],
  );
  return new Set(rows.map((row) => row.storage_key));
}
