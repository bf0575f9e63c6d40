import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/** Where CSV jobs keep their files: finished exports, and uploaded imports waiting for their job. */
export const CSV_DIRS = { exports: 'exports', imports: 'imports' } as const;
export type CsvDir = keyof typeof CSV_DIRS;

/** The file of a job: `DATA_DIR/<exports|imports>/<name>.csv` (names are uuids, never user input). */
export function csvFilePath(dataDir: string, dir: CsvDir, name: string): string {
  if (!/^[0-9a-f-]{36}$/i.test(name)) throw new Error('bad csv file name');
  return path.join(dataDir, CSV_DIRS[dir], `${name}.csv`);
}

/**
 * Writes a stream to its final path through a `.part` file renamed into place, so a reader never sees a half
 * written file (and a crash leaves only a `.part`, which `removeOldCsvFiles` deletes later).
 */
export async function writeAtomically(file: string, source: Readable): Promise<number> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const part = `${file}.${crypto.randomBytes(4).toString('hex')}.part`;
  try {
    await pipeline(source, fs.createWriteStream(part, { mode: 0o600 }));
    await fs.promises.rename(part, file);
  } catch (error) {
    await fs.promises.rm(part, { force: true });
    throw error;
  }
  return (await fs.promises.stat(file)).size;
}

/**
 * Deletes export and import files (and stray `.part` files) older than `hours`: a finished export stays
 * downloadable that long. The clean-temp task calls it; so does every CSV job before it starts.
 */
export async function removeOldCsvFiles(dataDir: string, hours: number): Promise<number> {
  const cutoff = Date.now() - hours * 60 * 60 * 1000;
  let removed = 0;
  for (const dir of Object.values(CSV_DIRS)) {
    const full = path.join(dataDir, dir);
    const names = await fs.promises.readdir(full).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.csv') || n.endsWith('.part'))) {
      const file = path.join(full, name);
      const stat = await fs.promises.lstat(file).catch(() => null);
      if (!stat?.isFile() || stat.mtimeMs >= cutoff) continue;
      await fs.promises.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
