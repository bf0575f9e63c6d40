/**
 * `npx tsx bench/job-queue.ts [project-dir]`: how long small CSV exports wait in the `csv-export` queue
 * (issue 28, item 7), printed as figures (no assertions). Starts one server (`server/main.ts` of
 * `project-dir`, this checkout by default: pass an older checkout to measure before a change) on a throwaway
 * PGlite DATA_DIR with `CSV_JOB_ROWS=1`, so every export of the 20 seeded departments is a job, queues
 * EXPORTS exports at once over HTTP, waits until every job has ended, and prints per job the queue wait
 * (`started_at - created_at`) and the run time (`completed_at - started_at`): median, p95, max, and the time
 * from the first request to the last job's end.
 * Env: EXPORTS (default 200), JOBS_POLL_SECONDS (default 2, the product's default).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/lib/pg-cluster.ts';
import { median, pct } from './lib/stats.ts';
import { startServerProcess } from './lib/serverProcess.ts';

const EXPORTS = Number(process.env.EXPORTS ?? 200);
const PASSWORD = 'bench-queue-password-1';
const cwd = path.resolve(process.argv[2] ?? '.');
const say = (line: string) => process.stdout.write(`${line}\n`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-bench-queue-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}/api`;
const env: NodeJS.ProcessEnv = { ...process.env };
delete env.DATABASE_URL;
const server = await startServerProcess({
  command: process.execPath,
  args: ['--import', 'tsx', 'server/main.ts'],
  cwd,
  port,
  env: {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_TO_FILE: '0',
    LOG_LEVEL: 'warn',
    DIST_DIR: '/nonexistent-dist',
    ADMIN_PASSWORD: PASSWORD,
    CSV_JOB_ROWS: '1',
    JOBS_POLL_SECONDS: process.env.JOBS_POLL_SECONDS ?? '2',
  },
});
try {
  const call = async <T>(method: string, url: string, token?: string, body?: object): Promise<T> => {
    const res = await fetch(`${base}/${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  const login = await call<{ access_token: string }>('POST', 'v1/user/login', undefined, {
    username: 'admin',
    password: PASSWORD,
  });
  const token = login.access_token;
  for (let i = 1; i <= 20; i += 1)
    await call<unknown>('POST', 'v1/user/departments', token, {
      name: `Department ${i}`,
      parent_id: 0,
      sort: i,
    });
  // The job runtime starts once the server listens: a job ticket (202) says it is up.
  for (;;) {
    const res = await fetch(`${base}/v1/user/departments/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.text();
    if (res.status === 202) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  say(`queueing ${EXPORTS} exports of 20 rows on one server (${cwd})...`);
  const started = Date.now();
  const tickets: { job_id: string }[] = await Promise.all(
    Array.from({ length: EXPORTS }, () =>
      call<{ job_id: string }>('GET', 'v1/user/departments/export', token),
    ),
  );
  interface Job {
    state: string;
    created_at: string;
    started_at: string | null;
    completed_at: string | null;
  }
  const jobs = new Map<string, Job>();
  while (jobs.size < tickets.length) {
    for (const { job_id } of tickets) {
      if (jobs.has(job_id)) continue;
      const job = await call<Job>('GET', `v1/system/jobs/csv-export/${job_id}`, token);
      if (job.state === 'completed' || job.state === 'failed') jobs.set(job_id, job);
    }
    if (jobs.size < tickets.length) await new Promise((r) => setTimeout(r, 500));
  }
  const ms = (a: string | null, b: string | null) => Date.parse(b!) - Date.parse(a!);
  const waits = [...jobs.values()].map((j) => ms(j.created_at, j.started_at));
  const runs = [...jobs.values()].map((j) => ms(j.started_at, j.completed_at));
  const lastEnd = Math.max(...[...jobs.values()].map((j) => Date.parse(j.completed_at!)));
  const failed = [...jobs.values()].filter((j) => j.state === 'failed').length;
  const f = (v: number) => `${(v / 1000).toFixed(2)} s`;
  say(`jobs: ${jobs.size} (${failed} failed)`);
  say(`queue wait: median ${f(median(waits))}, p95 ${f(pct(waits, 95))}, max ${f(Math.max(...waits))}`);
  say(`run time:   median ${f(median(runs))}, p95 ${f(pct(runs, 95))}, max ${f(Math.max(...runs))}`);
  say(`first request to last job's end: ${f(lastEnd - started)}`);
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
