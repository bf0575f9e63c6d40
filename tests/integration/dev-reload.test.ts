import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/pg-cluster.ts';
import { eventually, giveUp } from '../helpers/eventually.ts';
import { serverTestEnv } from '../helpers/serverProcess.ts';

/**
 * Issue 35 item 12: the API of `npm run dev` (server/dev-server.ts, a real process in a temporary copy of the
 * project on a temporary PGlite DATA_DIR) takes an edit of a resource file without restarting: the same
 * process swaps in a freshly imported app, the edit shows in the API, and the requests sent all through the
 * swap are answered by one app or the other (never a 5xx, never a refused connection). Jobs sent before, during
 * and after a reload (task runs, pg-boss jobs) each run once: the old app's job runtime finishes what it holds
 * and stops when the old app closes, the new app's starts with it. A new migration file
 * ends the process with the full-restart status, which scripts/dev.ts answers by starting it again.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'dev reload password';
/** Deadlines, not measures: a start under load takes far less. */
const START_DEADLINE_MS = 120_000;
const RELOAD_DEADLINE_MS = 60_000;

describe('npm run dev: the in-process reload', () => {
  let copy: string;
  let dataDir: string;
  let child: ChildProcess;
  let base: string;
  let output = '';
  let token = '';
  let env: NodeJS.ProcessEnv;

  /** Starts server/dev-server.ts in the copy (what scripts/dev.ts does) and waits until it is ready. */
  async function start(): Promise<void> {
    child = spawn(process.execPath, ['--import', 'tsx', 'server/dev-server.ts'], {
      cwd: copy,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-8000));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    await eventually(
      async () => {
        if (child.exitCode !== null) throw giveUp(new Error(`dev server exited:\n${output}`));
        expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
      },
      { timeoutMs: START_DEADLINE_MS, what: 'the dev server to be ready' },
    );
  }

  beforeAll(async () => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-reload-'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-reload-data-'));
    for (const entry of ['server', 'resources', 'schemas', 'locales', 'package.json', 'tsconfig.json'])
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    fs.rmSync(path.join(copy, 'server/migrations/snapshots/.pending.json'), { force: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      ...serverTestEnv(dataDir, port),
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: PASSWORD,
    };
    delete env.DATABASE_URL;
    await start();
    const login = await fetch(`${base}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
    });
    token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  }, START_DEADLINE_MS + 10_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    fs.rmSync(copy, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: unknown } };
  };
  /** The names of the departments in their default order, the one the resource file declares. */
  const names = async () => {
    const res = await call('GET', 'v1/user/departments?page=1&size=100');
    expect(res.status).toBe(200);
    const rows = (res.body.data as { data: { name: string }[] }).data;
    return rows.map((row) => row.name).filter((name) => name.startsWith('reload-'));
  };

  it(
    'serves an edit of a resource file from the same process, answering every request meanwhile',
    async () => {
      for (const [name, sort] of [
        ['reload-a', 1],
        ['reload-b', 2],
      ] as const)
        expect((await call('POST', 'v1/user/departments', { name, sort })).status).toBeLessThan(300);
      expect(await names()).toEqual(['reload-a', 'reload-b']);

      // Requests all through the swap: each one answered by the old app or the new one.
      const statuses: number[] = [];
      let probing = true;
      const probe = (async () => {
        while (probing) {
          statuses.push(
            await fetch(`${base}/api/health/ready`).then(
              (r) => r.status,
              () => 0,
            ),
          );
        }
      })();

      const file = path.join(copy, 'resources/departments.ts');
      const source = fs.readFileSync(file, 'utf8');
      const edited = source.replace(
        "defaultSort: { field: 'sort', order: 'asc' }",
        "defaultSort: { field: 'sort', order: 'desc' }",
      );
      expect(edited).not.toBe(source);
      fs.writeFileSync(file, edited);

      await eventually(
        async () => {
          if (child.exitCode !== null) throw giveUp(new Error(`dev server exited:\n${output}`));
          expect(await names()).toEqual(['reload-b', 'reload-a']);
        },
        { timeoutMs: RELOAD_DEADLINE_MS, what: 'the edited default order' },
      );
      probing = false;
      await probe;
      expect(output).toMatch(/reloaded in \d+ ms: resources\/departments\.ts/);
      expect(child.exitCode).toBeNull();
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    },
    RELOAD_DEADLINE_MS + 30_000,
  );

  it(
    'jobs sent before, during and after a reload each run once, none lost (the runtime restarts with the app)',
    async () => {
      // A task run from the API is a pg-boss job on the task's own queue, worked by the app's job runtime: the
      // old app's runtime stops (finishing what it holds) when it closes, the new one's started with it.
      const task = await call('POST', 'v1/system/tasks', {
        name: 'reload-jobs',
        handler: 'activities.trim',
        cron: '0 3 1 1 *',
      });
      expect(task.status, JSON.stringify(task.body)).toBe(201);
      const id = (task.body.data as { id: string }).id;
      const jobIds: string[] = [];
      const runTask = async () => {
        const res = await call('POST', `v1/system/tasks/${id}/run`);
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        const ticket = res.body.data as { job_id: string | null };
        expect(ticket.job_id).not.toBeNull();
        jobIds.push(ticket.job_id!);
      };
      const runs = async () => {
        const res = await call('GET', `v1/system/tasks/${id}/runs?page=1&size=100`);
        expect(res.status).toBe(200);
        return (res.body.data as { data: { job_id: string | null; status: string }[] }).data;
      };
      await runTask();

      const file = path.join(copy, 'resources/departments.ts');
      const source = fs.readFileSync(file, 'utf8');
      const reloads = (output.match(/reloaded in \d+ ms/g) ?? []).length;
      fs.writeFileSync(file, source.replace("order: 'desc' }", "order: 'asc' }"));
      // Runs sent while the new app is being built and swapped in (the old one answers until then).
      while ((output.match(/reloaded in \d+ ms/g) ?? []).length === reloads) {
        if (child.exitCode !== null) throw new Error(`dev server exited:\n${output}`);
        await runTask();
      }
      await runTask();
      expect(child.exitCode).toBeNull();

      // Every job ran exactly once and succeeded: one run per job, none left running, none twice.
      await eventually(
        async () => {
          const all = await runs();
          expect(all.map((r) => r.job_id).sort()).toEqual([...jobIds].sort());
          expect(all.filter((r) => r.status !== 'succeeded')).toEqual([]);
        },
        { timeoutMs: RELOAD_DEADLINE_MS, what: 'every task run to succeed once' },
      );
      for (const jobId of jobIds) {
        const job = await call('GET', `v1/system/jobs/${encodeURIComponent(`task-${id}`)}/${jobId}`);
        if (job.status === 404) continue;
        expect(job.body.data).toMatchObject({ state: 'completed', retry_count: 0 });
      }
      expect(await names()).toEqual(['reload-a', 'reload-b']);
    },
    RELOAD_DEADLINE_MS * 2 + 30_000,
  );

  it(
    'falls back to the full restart, saying so, when the edited file does not load',
    async () => {
      const file = path.join(copy, 'resources/departments.ts');
      const source = fs.readFileSync(file, 'utf8');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      fs.writeFileSync(file, `${source}\nexport const broken = ;\n`);
      expect(await exited).toBe(75);
      expect(output).toMatch(/reloading failed \(.*\): full restart/s);
      fs.writeFileSync(file, source);
    },
    RELOAD_DEADLINE_MS + 30_000,
  );

  it(
    'asks for a full restart when a migration is written',
    async () => {
      // What scripts/dev.ts does on the status 75: a new process on the same DATA_DIR, with the last edit.
      await start();
      expect(await names()).toEqual(['reload-a', 'reload-b']);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      fs.writeFileSync(path.join(copy, 'server/migrations/9999_dev_reload_probe.sql'), 'SELECT 1;\n');
      await eventually(() => expect(output).toMatch(/9999_dev_reload_probe\.sql changed: full restart/), {
        timeoutMs: RELOAD_DEADLINE_MS,
        what: 'the full-restart notice',
      });
      expect(await exited).toBe(75);
    },
    RELOAD_DEADLINE_MS + 30_000,
  );
});
