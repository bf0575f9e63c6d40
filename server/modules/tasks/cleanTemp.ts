import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../types.ts';

/**
 * Deletes abandoned staged uploads: the files module streams an upload to DATA_DIR/uploads/.tmp/<random>.part
 * and renames it into place on success, so a `.part` file older than a few hours belongs to an upload whose
 * process died. Only regular `.part` files directly in that directory are touched.
 */
export async function cleanTempUploads(
  { config }: AppContext,
  { older_than_hours: hours }: { older_than_hours: number },
): Promise<{ removed: number; bytes: number }> {
  const dir = path.join(config.dataDir, 'uploads', '.tmp');
  const cutoff = Date.now() - hours * 60 * 60 * 1000;
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return { removed: 0, bytes: 0 };
  }
  let removed = 0;
  let bytes = 0;
  for (const name of names.filter((n) => n.endsWith('.part'))) {
    const file = path.join(dir, name);
    const stat = await fs.promises.lstat(file).catch(() => null);
    if (!stat?.isFile() || stat.mtimeMs >= cutoff) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
    bytes += stat.size;
  }
  return { removed, bytes };
}
