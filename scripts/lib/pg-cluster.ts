import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, trust authentication. */
  url: string;
  port: number;
  dir: string;
  /** Stops the server (fast mode: connections are cut) and keeps the data, for restart tests. */
  stop(): void;
  /** Starts a stopped server again on the same port. */
  start(): void;
  /** Stops the server (immediate mode) and removes the directory; safe to call twice. */
  destroy(): void;
}

/**
 * Creates and starts a throwaway PostgreSQL cluster in a temp directory on a free loopback port, running
 * the server binaries as the `postgres` OS user when this process is root (PostgreSQL refuses root).
 * Example: `const pg = await startPgCluster({ log: console.log }); try { ... } finally { pg.destroy(); }`.
 */
export async function startPgCluster({ log }: { log: (line: string) => void }): Promise<PgCluster> {
  const bindir = findBindir();
  const asPostgres = process.getuid?.() === 0 ? postgresUser() : null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (asPostgres) fs.chownSync(dir, asPostgres.uid, asPostgres.gid);
  let isStarted = false;
  let isDestroyed = false;
  const run = (program: string, args: string[]): void => {
    const file = path.join(bindir, program);
    const [cmd, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    // pg_ctl starts the server in a session of its own, so a Ctrl-C in the terminal does not reach it and
    // destroy() still finds it running.
    const res = spawnSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (res.status !== 0) {
      throw new Error(
        `${program} failed (${res.error?.message ?? `exit ${res.status}`}):\n${res.stdout}${res.stderr}` +
          (fs.existsSync(logFile) ? `\n--- server.log ---\n${fs.readFileSync(logFile, 'utf8')}` : ''),
      );
    }
  };
  const destroy = (): void => {
    if (isDestroyed) return;
    isDestroyed = true;
    if (isStarted) {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch (err) {
        log(`warning: could not stop the cluster: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    log(`initdb in ${dir} (${bindir}${asPostgres ? ', as the postgres user' : ''})`);
    run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const port = await freePort();
    // Durability settings off: the cluster lives for one test run only.
    const serverOptions = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    const start = (): void => {
      run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
      isStarted = true;
    };
    const stop = (): void => {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      isStarted = false;
    };
    start();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    log(`PostgreSQL ${serverVersion(bindir)} listening on 127.0.0.1:${port}`);
    return { url, port, dir, stop, start, destroy };
  } catch (err) {
    destroy();
    throw err;
  }
}

/** The directory of the PostgreSQL server programs: `pg_config --bindir`, else the newest Debian one. */
export function findBindir(): string {
  const candidates: string[] = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // pg_config is missing without libpq-dev/postgresql; fall back to Debian's layout.
  }
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(debian, v, 'bin'));
  }
  const found = candidates.find((d) => fs.existsSync(path.join(d, 'initdb')));
  if (!found) {
    throw new Error(
      'PostgreSQL server programs (initdb, pg_ctl) not found. Install them, e.g. `apt-get install -y postgresql-15`, ' +
        'or set PG_BINDIR.',
    );
  }
  return found;
}

function serverVersion(bindir: string): string {
  try {
    return execFileSync(path.join(bindir, 'postgres'), ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^postgres \(PostgreSQL\) /, '');
  } catch {
    return '(unknown version)';
  }
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('Running as root, but there is no `postgres` OS user to run PostgreSQL as.');
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}
