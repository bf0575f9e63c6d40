import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/lib/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import '../setup/db-template.ts';

/**
 * One process per PGlite directory (issue 28): real server processes on one temporary DATA_DIR. A stale
 * lock (a dead pid of this host) is taken over; a second server, `npm run db:migrate` and `npm run
 * storage:migrate` refuse to open the directory while the first runs, with a message naming the owner's pid
 * and the directory on stderr, a non-zero exit and no stack trace, and the first keeps serving and keeps its
 * writes; after SIGTERM the lock is gone and the next server starts on the same data.
 */
const isPg = Boolean(process.env.DATABASE_URL);
const reason =
  'skipped under npm run test:pg: the lock guards an embedded PGlite directory, and with DATABASE_URL ' +
  'the servers use PostgreSQL, where any number may run';
const PASSWORD = 'pglite-lock-password-1';
const repoRoot = path.resolve(import.meta.dirname, '../..');

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node --import tsx <args>` in the repository to its end. One that is still running after `ms` (a
 * second server that started after all) is killed, and its exit code is then null.
 */
function runToExit(args: string[], env: Record<string, string>, ms = 60_000): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: repoRoot,
      env: { ...process.env, LOG_TO_FILE: '0', LOG_LEVEL: 'warn', JOBS: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The pid of a process that has exited (and so is dead on this host). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe.skipIf(isPg)(`one process per PGlite directory (${isPg ? reason : 'PGlite'})`, () => {
  // Named here, created in beforeAll: a skipped describe still runs its body, but no hooks.
  const dataDir = path.join(os.tmpdir(), `admin-pglite-lock-${crypto.randomBytes(6).toString('hex')}`);
  const dbDir = path.join(dataDir, 'db');
  const lockFile = `${dbDir}.lock`;
  const env = { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, JOBS: '0' };
  let first: ServerProcess | null = null;
  let next: ServerProcess | null = null;

  beforeAll(async () => {
    fs.mkdirSync(dataDir);
    // The run's migrated template (tests/setup/db-template.ts) spares the servers a fresh initdb.
    const root = inject('pgliteTemplateRoot');
    if (root) fs.cpSync(path.join(root, 'template'), dbDir, { recursive: true });
  });
  afterAll(async () => {
    await first?.stop();
    await next?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function setSiteName(server: ServerProcess, name: string): Promise<void> {
    const login = await fetch(`${server.baseURL}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    const saved = await fetch(`${server.baseURL}/api/v1/settings/site`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ site_name: name }),
    });
    expect(saved.status).toBe(200);
  }

  async function siteName(server: ServerProcess): Promise<string> {
    const res = await fetch(`${server.baseURL}/api/v1`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { config: { site_name: string } } }).data.config.site_name;
  }

  function expectRefusal(exit: Exit, pid: number, prefix: string): void {
    expect(exit.code, exit.stdout + exit.stderr).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(exit.stderr).toContain(
      `${prefix}The database directory ${dbDir} is in use by process ${pid} on host`,
    );
    expect(exit.stderr).toContain(`delete the lock file ${lockFile}`);
    expect(exit.stderr).not.toMatch(/^\s+at /m);
  }

  it('takes over a stale lock left by a dead process of this host', async () => {
    const dead = await deadPid();
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(
      lockFile,
      JSON.stringify({ pid: dead, hostname: os.hostname(), started: new Date().toISOString(), token: 'x' }),
    );
    first = await startServerProcess(env);
    const owner = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Record<string, unknown>;
    expect(owner).toMatchObject({ pid: first.pid, hostname: os.hostname() });
    expect(Date.parse(String(owner.started))).not.toBeNaN();
  }, 120_000);

  it('refuses a second server while the first keeps serving and keeps its writes', async () => {
    const server = first!;
    await setSiteName(server, 'Written before');
    const port = await freePort();
    const second = await runToExit(['server/main.ts'], {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_DIR: '/nonexistent-dist',
    });
    expectRefusal(second, server.pid, 'Failed to start: ');
    expect(await siteName(server)).toBe('Written before');
    await setSiteName(server, 'Written after');
    expect(await siteName(server)).toBe('Written after');
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: server.pid });
  }, 120_000);

  it('refuses npm run db:migrate and npm run storage:migrate while the server runs', async () => {
    const server = first!;
    const [migrate, storage] = await Promise.all([
      runToExit(['server/cli/migrate.ts'], env),
      runToExit(['server/cli/storage-migrate.ts', '--to', 'postgres', '--from', 'local'], env),
    ]);
    expectRefusal(migrate, server.pid, '[db:migrate] ');
    expectRefusal(storage, server.pid, '[storage:migrate] ');
    expect(await siteName(server)).toBe('Written after');
  }, 120_000);

  it('releases the lock on SIGTERM, and the next server starts on the same data', async () => {
    await first!.stop();
    first = null;
    expect(fs.existsSync(lockFile)).toBe(false);
    next = await startServerProcess(env);
    expect(await siteName(next)).toBe('Written after');
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: next.pid });
  }, 120_000);
});
