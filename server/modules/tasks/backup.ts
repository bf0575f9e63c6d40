import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { localStorage } from '../../storage/index.ts';
import type { AppContext } from '../../core/app-module.ts';

const run = promisify(execFile);

/**
 * Backs up the database through the storage interface under `backups/` and keeps the newest `keep`
 * backups: with STORAGE=s3 into the bucket (every server sees them, and they survive the database), else
 * into a local storage rooted at DATA_DIR (DATA_DIR/backups/, as before). STORAGE=postgres keeps backups
 * local too: a backup of the database kept inside that database is no backup, and each dump would carry
 * the previous ones. The dump is written to a temp directory under DATA_DIR first. PostgreSQL: `pg_dump
 * --format=custom` (restore with `pg_restore`), found through `pg_config --bindir`, else on PATH; the
 * password travels in PGPASSWORD, never on the command line. PGlite: `dumpDataDir()`, a gzip tarball of the
 * data directory taken by the database itself (consistent while it runs; restore with PGlite's `loadDataDir`
 * or by unpacking it as DATA_DIR/db while the server is stopped).
 */
export async function backupDatabase(
  { db, config, storage: assets }: AppContext,
  { keep }: { keep: number },
): Promise<{ file: string; key: string; bytes: number; removed: number }> {
  await fs.promises.mkdir(config.dataDir, { recursive: true });
  const dir = await fs.promises.mkdtemp(path.join(config.dataDir, '.backup-'));
  const storage = assets.driver === 's3' ? assets : localStorage(config.dataDir);
  try {
    const file = await dumpTo(db, config, dir);
    const key = `${BACKUP_PREFIX}${path.basename(file)}`;
    const { size } = await storage.put(key, fs.createReadStream(file));
    const removed = await pruneBackups(storage, keep);
    return { file: path.basename(file), key, bytes: size, removed };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

const BACKUP_PREFIX = 'backups/';

async function dumpTo(db: AppContext['db'], config: AppContext['config'], dir: string): Promise<string> {
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
  return file;
}

async function pgDump(databaseUrl: string, file: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const bin = await pgBinary('pg_dump');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin, ['--format=custom', `--file=${file}`, `--dbname=${url.toString()}`], {
      // Untranslated messages, so backupFailureOf reads them whatever the server's locale.
      env: { ...process.env, LC_MESSAGES: 'C', ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new BackupError(error.code === 'ENOENT' ? 'missing' : 'other')),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(backupFailureOf(stderr), code)),
    );
  });
}

/**
 * Why a backup failed, as staff may read it. pg_dump's stderr names the host, port, user and database (and a
 * path): it is read here to class the failure, then dropped, never stored as the run's error nor logged.
 */
export type BackupFailure =
  'unavailable' | 'auth' | 'target' | 'version' | 'output' | 'permission' | 'missing' | 'other';

/**
 * A failed backup: the run keeps the localized message of `messageKey` and `{ reason }` (scheduler.ts); the
 * message of the error itself (what the log line carries) says only the reason and pg_dump's exit code.
 */
export class BackupError extends Error {
  readonly reason: BackupFailure;
  readonly messageKey: string;
  constructor(reason: BackupFailure, exitCode?: number | null) {
    super(`pg_dump failed: ${reason}${exitCode == null ? '' : ` (exit code ${exitCode})`}`);
    this.name = 'BackupError';
    this.reason = reason;
    // A database that cannot be reached is said as every other path says it.
    this.messageKey = reason === 'unavailable' ? 'errors.db_unavailable' : `system.backup_errors.${reason}`;
  }
}

/** libpq's and pg_dump's messages (LC_MESSAGES=C), first match wins; anything else is `other`. */
const FAILURES: [BackupFailure, RegExp][] = [
  [
    'auth',
    /password authentication failed|no pg_hba\.conf entry|authentication failed|no password supplied/i,
  ],
  ['target', /(?:database|role) "[^"]*" does not exist/i],
  ['version', /server version mismatch/i],
  ['output', /could not (?:open|write to|close) (?:the )?output file|no space left on device/i],
  [
    'unavailable',
    /could not connect|connection refused|server closed the connection|terminating connection|the database system is (?:starting up|shutting down|in recovery)|timeout expired|could not translate host name|no route to host|network is unreachable|too many clients|connection timed out|could not (?:receive|send) data/i,
  ],
  ['permission', /permission denied|must be owner|insufficient privilege/i],
];

export function backupFailureOf(stderr: string): BackupFailure {
  return FAILURES.find(([, pattern]) => pattern.test(stderr))?.[0] ?? 'other';
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

/** Deletes all but the newest `keep` backups; returns how many went. */
async function pruneBackups(storage: AppContext['storage'], keep: number): Promise<number> {
  const keys: string[] = [];
  for await (const item of storage.list(BACKUP_PREFIX)) {
    if (/^backup-.*\.(dump|tar\.gz)$/.test(item.key.slice(BACKUP_PREFIX.length))) keys.push(item.key);
  }
  keys.sort();
  const old = keys.slice(0, Math.max(0, keys.length - keep));
  for (const key of old) await storage.remove(key);
  return old.length;
}
