import type { Readable } from 'node:stream';
import { JOB_FILES_PREFIX, type FileStorage } from '../../storage/index.ts';

/**
 * Where CSV jobs keep their files in the configured file storage, under its reserved `jobs/` prefix:
 * finished exports, and uploaded imports waiting for their job. In the shared storage, not a server's own
 * directory, so any server downloads an export another one wrote and runs an import another one received.
 */
export const CSV_DIRS = {
  exports: `${JOB_FILES_PREFIX}exports/`,
  imports: `${JOB_FILES_PREFIX}imports/`,
} as const;
export type CsvDir = keyof typeof CSV_DIRS;

/** The storage key of a job's file: `jobs/<exports|imports>/<name>.csv` (names are uuids, never user input). */
export function csvFileKey(dir: CsvDir, name: string): string {
  if (!/^[0-9a-f-]{36}$/i.test(name)) throw new Error('bad csv file name');
  return `${CSV_DIRS[dir]}${name}.csv`;
}

/**
 * An export job's CSV is stored gzip-compressed, once, as it is written (`<key>.gz`, level 1: a few times
 * faster than the default level for a file a few percent larger); the download sends those bytes as they are
 * to a client that accepts gzip and inflates them for one that does not (routes.ts), so no download
 * compresses anything (issue 37).
 */
export const GZIP_SUFFIX = '.gz';
export const EXPORT_GZIP_LEVEL = 1;

/**
 * Writes a job's file: staged, then committed under its key, so a reader never sees half of it (a crash
 * leaves only a staged upload, which the storage's clean-temp removes). Resolves to its size in bytes.
 */
export async function writeCsvFile(storage: FileStorage, key: string, source: Readable): Promise<number> {
  return (await storage.put(key, source)).size;
}

/** A job file is kept at least this long: a finished export stays downloadable, a queued import runnable. */
export const CSV_KEEP_HOURS = 24;

/**
 * Deletes export and import files stored more than `hours` ago, never sooner than CSV_KEEP_HOURS (a clean-up
 * task set to 1 hour must not take a queued import's file or a fresh export). The clean-temp task calls it;
 * so does every CSV job (before an export, after an import).
 */
export async function removeOldCsvFiles(storage: FileStorage, hours: number): Promise<number> {
  const cutoff = Date.now() - Math.max(hours, CSV_KEEP_HOURS) * 60 * 60 * 1000;
  let removed = 0;
  for (const prefix of Object.values(CSV_DIRS)) {
    const old: string[] = [];
    // Collected first: deleting while a driver pages through its listing could skip keys.
    for await (const item of storage.list(prefix)) {
      if (
        (item.key.endsWith('.csv') || item.key.endsWith(`.csv${GZIP_SUFFIX}`)) &&
        item.modified.getTime() < cutoff
      )
        old.push(item.key);
    }
    for (const key of old) {
      await storage.remove(key);
      removed++;
    }
  }
  return removed;
}
