import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  checkKey,
  countingStream,
  holdErrors,
  notFound,
  tempName,
  type FileStorage,
  type StoredObject,
} from './types.ts';

/**
 * `STORAGE=local` (the default): a directory, DATA_DIR/uploads. Staging writes `<root>/.tmp/<random>.part`
 * on the same file system, so `commit` is an atomic rename into `<root>/<key>`. A write the disk refuses
 * (ENOSPC: a 507, server/core/db-errors.ts) removes the partial temp file. Only for one server, or
 * several sharing that directory (a network file system).
 */
export function localStorage(root: string): FileStorage {
  const tmpDir = path.join(root, '.tmp');
  const fileOf = (key: string) => path.join(root, checkKey(key));
  const storage: FileStorage = {
    driver: 'local',
    async stage(source, opts) {
      const tmp = path.join(tmpDir, tempName());
      const counter = countingStream(opts);
      holdErrors(source);
      // Open before piping: a stream that opens lazily can create the file after a refused upload's
      // cleanup already ran (the limit trips before the open finishes), leaving an empty .part behind.
      // A temp file that cannot be made (a read-only volume) ends the source too, as the pipeline would:
      // an export's source holds a database connection until it is read or destroyed.
      const handle = await fs.promises
        .mkdir(tmpDir, { recursive: true })
        .then(() => fs.promises.open(tmp, 'wx', 0o600))
        .catch((error: unknown) => {
          source.destroy();
          throw error;
        });
      try {
        await pipeline(source, counter, handle.createWriteStream());
      } catch (error) {
        await handle.close().catch(() => {});
        await fs.promises.rm(tmp, { force: true });
        throw error;
      }
      let isSettled = false;
      return {
        size: counter.byteCount,
        head: counter.head(),
        async commit(key) {
          const target = fileOf(key);
          try {
            await fs.promises.mkdir(path.dirname(target), { recursive: true });
            await fs.promises.rename(tmp, target);
          } catch (error) {
            // A full disk can refuse the new directory: the staged file goes too, nothing half-kept.
            await fs.promises.rm(tmp, { force: true });
            throw error;
          } finally {
            isSettled = true;
          }
        },
        async discard() {
          if (!isSettled) await fs.promises.rm(tmp, { force: true });
          isSettled = true;
        },
      };
    },
    async open(key, range) {
      const file = fileOf(key);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw notFound(key);
      const stream = fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
      return { stream, size: stat.size };
    },
    async stat(key) {
      const stat = await fs.promises.stat(fileOf(key)).catch(() => null);
      return stat?.isFile() ? { key, size: stat.size, modified: stat.mtime } : null;
    },
    async put(key, source: Readable) {
      const staged = await storage.stage(source, { maxBytes: Number.POSITIVE_INFINITY, headBytes: 0 });
      await staged.commit(key);
      return { size: staged.size };
    },
    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    async *list(prefix = '') {
      // Walk only the directory the prefix names (a storage rooted at DATA_DIR holds the database too).
      const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      for (const key of walk(root, base)) {
        if (!key.startsWith(prefix)) continue;
        const stat = await fs.promises.stat(path.join(root, key)).catch(() => null);
        if (stat?.isFile()) yield { key, size: stat.size, modified: stat.mtime } satisfies StoredObject;
      }
    },
    async cleanTemp(before) {
      let names: string[];
      try {
        names = await fs.promises.readdir(tmpDir);
      } catch {
        return { removed: 0, bytes: 0 };
      }
      let removed = 0;
      let bytes = 0;
      for (const name of names.filter((n) => n.endsWith('.part'))) {
        const file = path.join(tmpDir, name);
        const stat = await fs.promises.lstat(file).catch(() => null);
        if (!stat?.isFile() || stat.mtimeMs >= before.getTime()) continue;
        await fs.promises.rm(file, { force: true });
        removed++;
        bytes += stat.size;
      }
      return { removed, bytes };
    },
    async close() {},
  };
  return storage;
}

/** Relative paths of the files under `dir`, sorted, skipping `.tmp` and other dot entries. */
function* walk(root: string, rel: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(root, child);
    else if (entry.isFile()) yield child;
  }
}
