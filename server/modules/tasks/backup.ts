import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppContext } from '../types.ts';

const run = promisify(execFile);

/**
 * Backs up the database into DATA_DIR/backups and keeps the newest `keep` backups. PostgreSQL: `pg_dump
 * --format=custom` (restore with `pg_restore`), found through `pg_config --bindir`, else on PATH; the
 * password travels in PGPASSWORD, never on the command line. PGlite: `dumpDataDir()`, a gzip tarball of the
 * data directory taken by the database itself (consistent while it runs; restore with PGlite's `loadDataDir`
 * or by unpacking it as DATA_DIR/db while the server is stopped).
 */
export async function backupDatabase(
  { db, config }: AppContext,
  { keep }: { keep: number },
): Promise<{ file: string; bytes: number; removed: number }> {
  const dir = path.join(config.dataDir, 'backups');
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');
  let file: string;
  if (db.kind === 'postgres') {
    if (!config.databaseUrl) throw new Error('DATABASE_URL is not set');
    file = path.join(dir, `backup-${stamp}.dump`);
    await pgDump(config.databaseUrl, file);
  } else {
    if (!db.dumpDataDir) throw new Error('this database cannot dump its data directory');
    file = path.join(dir, `backup-${stamp}.tar.gz`);
    const blob = await db.dumpDataDir();
    await fs.promises.writeFile(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
  }
  const { size } = await fs.promises.stat(file);
  const removed = await pruneBackups(dir, keep);
  return { file: path.basename(file), bytes: size, removed };
}

async function pgDump(databaseUrl: string, file: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const bin = await pgBinary('pg_dump');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin, ['--format=custom', `--file=${file}`, `--dbname=${url.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_dump exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

async function pgBinary(name: string): Promise<string> {
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    const candidate = path.join(stdout.trim(), name);
    if (fs.existsSync(candidate)) return candidate;
  } catch {
    // No pg_config: fall back to PATH.
  }
  return name;
}

/** Deletes all but the newest `keep` backup files; returns how many went. */
async function pruneBackups(dir: string, keep: number): Promise<number> {
  const names = (await fs.promises.readdir(dir)).filter((n) => /^backup-.*\.(dump|tar\.gz)$/.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await fs.promises.rm(path.join(dir, name), { force: true });
  return old.length;
}
