import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../../scripts/lib/frontend.ts';
import { freePort } from '../../../scripts/lib/pg-cluster.ts';
import { eventually, giveUp } from '../../helpers/eventually.ts';

/** The first administrator of every throwaway server (a fresh data directory per server). */
export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password-1' };

/** Set by the global setup: a migrated PGlite data directory each server's database starts as a copy of. */
export const PGLITE_TEMPLATE_ENV = 'E2E_PGLITE_TEMPLATE';

export interface E2eServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  baseURL: string;
  /** The server's temp DATA_DIR (PGlite, outbox/sms.log, ...), removed by `stop()`. */
  dataDir: string;
  /** Where the server's stdout and stderr go. */
  logFile: string;
  /** SIGTERM (it drains and closes the database), SIGKILL after 10 s; then removes `dataDir`. */
  stop(): Promise<void>;
}

/**
 * Starts the real server on a free port with a temp DATA_DIR (PGlite) and E2E_ADMIN, and waits until it is
 * ready. The entry is `server/main.ts`, which serves the app the global setup has built (`scripts/start.ts`
 * would check the build again and may rebuild dist/ under a running test). The global setup starts the shared
 * server; a test file that needs other settings starts its own with `extraEnv`.
 *
 * @example
 * const server = await startServer({ extraEnv: { SMTP_URL: smtp.url } });
 * const context = await newContext(browser, { baseURL: server.baseURL });
 * afterAll(() => server.stop());
 */
export async function startServer({
  extraEnv = {},
  entry = 'server/main.ts',
  log = () => undefined,
  readyTimeoutMs = 90_000,
}: {
  extraEnv?: NodeJS.ProcessEnv;
  entry?: string;
  log?: (line: string) => void;
  /** How long to wait for `/api/health/ready`. */
  readyTimeoutMs?: number;
} = {}): Promise<E2eServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.out');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(repoRoot, 'dist'),
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    LOG_TO_FILE: '0',
  };
  // Always the embedded database, even when run from a shell (or test:pg) that sets DATABASE_URL.
  delete env.DATABASE_URL;
  Object.assign(env, extraEnv);
  // The global setup's migrated PGlite data directory, copied where the server opens its database: the start
  // then finds every migration applied instead of creating and migrating a database of its own.
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template && !env.DATABASE_URL) fs.cpSync(template, path.join(dataDir, 'db'), { recursive: true });
  log(`starting the server on ${baseURL} (DATA_DIR ${dataDir}; output in ${logFile})`);
  const child = spawn(path.join(repoRoot, 'node_modules', '.bin', 'tsx'), [entry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const stop = () => stopChild(child, dataDir);
  try {
    await waitForReady(`${baseURL}/api/health/ready`, child, readyTimeoutMs);
  } catch (err) {
    const output = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${output}`);
  }
  log('server ready');
  return { baseURL, dataDir, logFile, stop };
}

async function stopChild(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function waitForReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  await eventually(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw giveUp(
          new Error(`The server exited before it was ready (${child.signalCode ?? child.exitCode}).`),
        );
      }
      const res = await fetch(url); // rejects while it is not listening yet
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    },
    { timeoutMs, intervalMs: 250, what: `the server to be ready at ${url}` },
  );
}
