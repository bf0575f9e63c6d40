import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/pg-cluster.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Two server processes against one PostgreSQL: this test's app and `server/main.ts` in a child process,
 * each with its own pg-boss (the child through DATABASE_URL, i.e. pg-boss's own pool). A scheduled run
 * happens once. Only under `npm run test:pg`: PGlite is an embedded, single-process database, so there
 * cannot be a second server on it.
 */
describe.skipIf(!process.env.DATABASE_URL)('scheduled tasks on two servers (PostgreSQL)', () => {
  let t: TestApp;
  let child: ChildProcess | null = null;
  let dataDir: string;

  beforeAll(async () => {
    t = await createTestApp({ jobs: true, jobsPollSeconds: 0.5, jobsCronSeconds: 1 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cluster-'));
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('runs a scheduled task once although both servers schedule and work it', async () => {
    const admin = await t.adminToken();
    const api = (method: string, url: string, payload?: object) =>
      t.request({ method: method as 'GET', url: `/api/v1/system/tasks${url}`, payload, token: admin });
    // Created disabled, so the second server starts working its queue before the first cron time.
    const created = await api('POST', '', {
      name: 'Once',
      handler: 'activities.trim',
      cron: '0 0 1 1 *',
      state: false,
    });
    const id = created.json().data.id as string;

    const port = await freePort();
    child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: t.dbUrl!,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_TO_FILE: '0',
        LOG_LEVEL: 'warn',
        DIST_DIR: '/nonexistent-dist',
        ADMIN_PASSWORD: 'cluster-admin-password-1',
        JOBS_CRON_SECONDS: '1',
        JOBS_POLL_SECONDS: '0.5',
      },
      stdio: 'ignore',
    });
    await waitReady(`http://127.0.0.1:${port}/api/health/ready`);
    // Let the second server sync the tasks (it does at start) before the schedule exists.
    await new Promise((r) => setTimeout(r, 1500));

    // A cron matching only the current minute (in UTC); near the end of a minute, wait for the next one.
    if (new Date().getUTCSeconds() > 45) await new Promise((r) => setTimeout(r, 16_000));
    const now = new Date();
    const cron = `${now.getUTCMinutes()} ${now.getUTCHours()} * * *`;
    expect((await api('PATCH', `/${id}`, { state: true, cron })).statusCode).toBe(200);

    const end = Date.now() + 15_000;
    while (Date.now() < end) {
      const { rows } = await t.db.query('SELECT 1 FROM task_runs WHERE task_id = $1', [id]);
      if (rows.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // Both timekeepers check every second; give them several more checks to (wrongly) send it again.
    await new Promise((r) => setTimeout(r, 5000));
    const runs = await t.db.query<{ status: string }>('SELECT status FROM task_runs WHERE task_id = $1', [
      id,
    ]);
    expect(runs.rows.map((r) => r.status)).toEqual(['succeeded']);
    const jobs = await t.db.query('SELECT 1 FROM pgboss.job WHERE name = $1', [`task-${id}`]);
    expect(jobs.rows).toHaveLength(1);
  }, 90_000);
});

async function waitReady(url: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`second server not ready: ${url}`);
}
