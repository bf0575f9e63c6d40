import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureFrontendBuilt, repoRoot } from '../../../scripts/lib/frontend.ts';
import { freePort } from '../../../scripts/lib/pgCluster.ts';
import './context.ts';

/** The first administrator of the throwaway server (a fresh data directory per run). */
export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password-1' };

let server: ChildProcess | null = null;
let dataDir: string | null = null;

/**
 * Builds the app when stale, then starts the real server (`scripts/start.ts`, as `npm start` does) on a
 * free port with a temp DATA_DIR (PGlite) and a known admin password, and waits until it is ready.
 */
export async function setup(project: TestProject): Promise<void> {
  const say = (line: string) => process.stdout.write(`[e2e] ${line}\n`);
  await ensureFrontendBuilt({ root: repoRoot, distDir: path.join(repoRoot, 'dist'), log: say });
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'index.html'))) {
    throw new Error('No built app in dist/: the browser tests need index.html and src/ to build.');
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-e2e-'));
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
  say(`starting the server on ${baseURL} (DATA_DIR ${dataDir}; output in ${logFile})`);
  server = spawn(path.join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', out, out],
  });
  try {
    await waitForReady(`${baseURL}/api/health/ready`, server, 90_000);
  } catch (err) {
    const output = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '';
    await teardown();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${output}`);
  }
  say('server ready');
  project.provide('baseURL', baseURL);
  project.provide('adminUsername', E2E_ADMIN.username);
  project.provide('adminPassword', E2E_ADMIN.password);
}

/** Stops the server (SIGTERM: it drains and closes the database) and removes its data directory. */
export async function teardown(): Promise<void> {
  const child = server;
  server = null;
  if (child && child.exitCode === null && child.signalCode === null) {
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
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
}

async function waitForReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited before it was ready (${child.signalCode ?? child.exitCode}).`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server was not ready at ${url} within ${timeoutMs / 1000} s.`);
}
