import type { Logger } from 'pino';
import type { FileStorage, StoredObject } from './types.ts';

/**
 * The keys uploads are stored under (files module: `yyyy/mm/<32 hex>.<ext>`); nothing else is swept: not
 * `backups/`, and not the CSV job files under JOB_FILES_PREFIX (`jobs/`), which their own clean-up removes
 * by age (server/engine/csv/files.ts).
 */
export const UPLOAD_KEY = /^\d{4}\/\d{2}\/[0-9a-f]{32}\.[a-z0-9]{1,10}$/;
/** Keys looked up in one query. */
const BATCH = 1000;

/**
 * Deletes stored uploads that no asset row refers to, older than `before`: what an upload leaves when its
 * server dies between committing the object and inserting the row, or a delete whose file removal failed.
 * Only keys of the upload shape are considered (backups and anything else stay), and a file younger than
 * `before` stays even when unreferenced, as its row may be a moment from being inserted. Each file removed is
 * logged with its key and size. Example:
 * `await removeOrphans(storage, { before, isReferenced: (keys) => referencedStorageKeys(db, keys), log })`.
 */
export async function removeOrphans(
  storage: FileStorage,
  {
    before,
    isReferenced,
    log,
  }: {
    before: Date;
    /** The subset of `keys` that something still refers to. */
    isReferenced: (keys: readonly string[]) => Promise<Set<string>>;
    log: Logger;
  },
): Promise<{ removed: number; bytes: number }> {
  let removed = 0;
  let bytes = 0;
  let batch: StoredObject[] = [];
  const sweep = async () => {
    const kept = await isReferenced(batch.map((item) => item.key));
    for (const item of batch) {
      if (kept.has(item.key)) continue;
      await storage.remove(item.key);
      removed += 1;
      bytes += item.size;
      log.info({ key: item.key, size: item.size, driver: storage.driver }, 'orphaned stored file removed');
    }
    batch = [];
  };
  for await (const item of storage.list()) {
    if (!UPLOAD_KEY.test(item.key) || item.modified >= before) continue;
    batch.push(item);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length) await sweep();
  return { removed, bytes };
}
