import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PERMISSION } from '../../schemas/permissions.ts';
import { defineTaskHandler } from '../../server/modules/tasks/handlers.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';
import { eventually } from '../helpers/eventually.ts';

// A handler only this file's server offers: records each call's params in a table the test reads.
const recordHandler = defineTaskHandler({
  name: 'test.record',
  description: 'system.tasks.handlers.auth_purge',
  params: z.object({ label: z.string().max(20).default('x') }).strict(),
  async run({ db }, { label }) {
    await db.query('CREATE TABLE IF NOT EXISTS test_task_calls (label text, at timestamptz DEFAULT now())');
    await db.query('INSERT INTO test_task_calls (label) VALUES ($1)', [label]);
    return { label };
  },
});

interface Run {
  id: string;
  trigger: string;
  status: string;
  started_at: string;
  duration_ms: number | null;
  result: unknown;
  error: string | null;
}

/**
 * Scheduled tasks over HTTP with pg-boss running (on PGlite by default, PostgreSQL under test:pg). pg-boss
 * checks schedules every `jobsCronSeconds` (1 s here instead of 30 s) and sends a job when the cron's
 * previous time is less than a minute ago, so an every-minute cron fires on the first check: the test waits
 * seconds, not a minute, and goes through pg-boss's real timekeeper.
 */
describe('scheduled tasks', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(
      { jobs: true, jobsPollSeconds: 0.5, jobsCronSeconds: 1 },
      { extraTaskHandlers: [recordHandler] },
    );
    admin = await t.adminToken();
  });
  afterAll(() => t?.close());

  const api = (method: string, url: string, payload?: unknown, token = admin) =>
    t.request({
      method: method as 'GET',
      url: `/api/v1/system/tasks${url}`,
      payload: payload as object,
      token,
    });
  const runsOf = async (id: string) => (await api('GET', `/${id}/runs`)).json().data.data as Run[];
  /** The first run `fn` finds, once it finds one. */
  const waitFor = <T>(fn: () => Promise<T | undefined>): Promise<T> =>
    eventually(
      async () => {
        const value = await fn();
        if (value === undefined) throw new Error('no such run yet');
        return value;
      },
      { timeoutMs: 15_000, intervalMs: 200, what: 'the run' },
    );

  it('lists the built-in tasks with their next run, and the registered handlers', async () => {
    const list = await api('GET', '');
    expect(list.statusCode).toBe(200);
    const tasks = list.json().data.data as { handler: string; next_run_at: string | null; state: boolean }[];
    expect(tasks.map((x) => x.handler)).toEqual([
      'auth.purge',
      'activities.trim',
      'database.backup',
      'files.clean_temp',
      'trash.purge',
    ]);
    expect(tasks[0]!.next_run_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(tasks.find((x) => x.handler === 'database.backup')!.next_run_at).toBeNull();
    const handlers = (await api('GET', '/handlers')).json().data as { name: string; params_schema: object }[];
    expect(handlers.map((h) => h.name)).toEqual(expect.arrayContaining(['database.backup', 'test.record']));
    expect(handlers.find((h) => h.name === 'database.backup')!.params_schema).toMatchObject({
      properties: { keep: { type: 'integer' } },
    });
  });

  it('refuses anything but a registered handler, bad params, a bad cron and a bad time zone (422)', async () => {
    const base = { name: 'x', cron: '0 3 * * *', timezone: 'UTC' };
    for (const handler of ['process.exit', 'require("fs").rmSync', '']) {
      const res = await api('POST', '', { ...base, handler });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['handler']);
    }
    for (const cron of ['61 * * * *', 'every day', '*/5 * * * * *', '']) {
      const res = await api('POST', '', { ...base, handler: 'auth.purge', cron });
      expect(res.statusCode, cron).toBe(422);
      expect(res.json().errors.cron).toBeDefined();
    }
    const zone = await api('POST', '', { ...base, handler: 'auth.purge', timezone: 'Mars/Olympus' });
    expect(zone.json().errors.timezone).toBeDefined();
    const params = await api('POST', '', { ...base, handler: 'database.backup', params: { keep: 0 } });
    expect(params.statusCode).toBe(422);
    expect(params.json().errors['params.keep']).toBeDefined();
    const extra = await api('POST', '', { ...base, handler: 'auth.purge', params: { cmd: 'rm -rf /' } });
    expect(extra.statusCode).toBe(422);
    const preview = await api('POST', '/preview', { cron: 'nope', timezone: 'UTC' });
    expect(preview.statusCode).toBe(422);
  });

  it('previews the next five run times, in the time zone given', async () => {
    const res = await api('POST', '/preview', { cron: '30 2 * * *', timezone: 'Asia/Shanghai' });
    const runs = res.json().data.next_runs as string[];
    expect(runs).toHaveLength(5);
    for (const r of runs) expect(r).toMatch(/T18:30:00\.000Z$/);
    expect([...runs].sort()).toEqual(runs);
  });

  it('creates, reads (with next_runs), updates and deletes a task, each change audited', async () => {
    const created = await api('POST', '', {
      name: 'Nightly',
      handler: 'database.backup',
      cron: '0 4 * * *',
      timezone: 'Europe/Paris',
      state: 0,
    });
    expect(created.statusCode).toBe(201);
    const task = created.json().data;
    expect(task).toMatchObject({ params: { keep: 7 }, state: false, next_run_at: null, last_run_at: null });
    const read = (await api('GET', `/${task.id}`)).json().data;
    expect(read.next_runs).toHaveLength(5);
    const patched = await api('PATCH', `/${task.id}`, { state: true, params: { keep: 3 } });
    expect(patched.json().data).toMatchObject({ state: true, params: { keep: 3 }, cron: '0 4 * * *' });
    expect(patched.json().data.next_run_at).not.toBeNull();
    expect((await api('PATCH', `/${task.id}`, { cron: 'bad' })).statusCode).toBe(422);
    expect((await api('DELETE', `/${task.id}`)).statusCode).toBe(200);
    expect((await api('GET', `/${task.id}`)).statusCode).toBe(404);
    const { rows } = await t.db.query<{ action: string }>(
      `SELECT action FROM activity_logs WHERE subject_type = 'tasks' AND subject_id = $1 ORDER BY id`,
      [task.id],
    );
    expect(rows.map((r) => r.action)).toEqual(['tasks.create', 'tasks.update', 'tasks.delete']);
  });

  it('fires on its cron through pg-boss and records the run', async () => {
    const res = await api('POST', '', {
      name: 'Every minute',
      handler: 'test.record',
      params: { label: 'cron' },
      cron: '* * * * *',
    });
    const id = res.json().data.id as string;
    const run = await waitFor(async () => (await runsOf(id)).find((r) => r.status !== 'running'));
    expect(run).toMatchObject({ trigger: 'cron', status: 'succeeded', result: { label: 'cron' } });
    expect(run.duration_ms).toBeGreaterThanOrEqual(0);
    expect((await api('GET', `/${id}`)).json().data.last_run_at).not.toBeNull();
    await api('PATCH', `/${id}`, { state: false });
  });

  it('runs now, and records a failure with its error', async () => {
    const res = await api('POST', '', {
      name: 'Manual',
      handler: 'test.record',
      params: { label: 'now' },
      cron: '0 0 1 1 *',
    });
    const id = res.json().data.id as string;
    const run = await api('POST', `/${id}/run`);
    expect(run.statusCode).toBe(202);
    expect(run.json().data.job_id).toMatch(/^[0-9a-f-]{36}$/);
    const done = await waitFor(async () => (await runsOf(id)).find((r) => r.status === 'succeeded'));
    expect(done.trigger).toBe('manual');
    // A handler that throws: its run is kept as failed, with the message.
    await t.db.query(
      `UPDATE scheduled_tasks SET params = '{"label": "far too long a label here"}' WHERE id = $1`,
      [id],
    );
    await api('POST', `/${id}/run`);
    const failed = await waitFor(async () => (await runsOf(id)).find((r) => r.status === 'failed'));
    expect(failed.error).toBeTruthy();
  });

  // pg_dump on PostgreSQL (test:pg), dumpDataDir on PGlite.
  it('backs up the database and cleans old temp uploads', async () => {
    const tmp = path.join(t.config.dataDir, 'uploads', '.tmp');
    fs.mkdirSync(tmp, { recursive: true });
    const old = path.join(tmp, 'abandoned.part');
    const fresh = path.join(tmp, 'in-progress.part');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(fresh, 'y');
    const longAgo = new Date(Date.now() - 48 * 3600 * 1000);
    fs.utimesSync(old, longAgo, longAgo);
    for (const handler of ['database.backup', 'files.clean_temp']) {
      const res = await api('POST', '', { name: handler, handler, cron: '0 0 1 1 *', state: false });
      const id = res.json().data.id as string;
      await api('POST', `/${id}/run`);
      const run = await waitFor(async () => (await runsOf(id)).find((r) => r.status !== 'running'));
      expect(run.status, run.error ?? '').toBe('succeeded');
      if (handler === 'database.backup') {
        const file = (run.result as { file: string }).file;
        expect(file).toMatch(process.env.DATABASE_URL ? /^backup-.*\.dump$/ : /^backup-.*\.tar\.gz$/);
        expect(fs.statSync(path.join(t.config.dataDir, 'backups', file)).size).toBeGreaterThan(1000);
      } else {
        expect(run.result).toMatchObject({ removed: 1 });
        expect(fs.existsSync(old)).toBe(false);
        expect(fs.existsSync(fresh)).toBe(true);
      }
    }
  });

  it('needs system.system.tasks to read and .create/.update/.delete to write or run', async () => {
    expect((await t.request({ url: '/api/v1/system/tasks' })).statusCode).toBe(401);
    const other = await createUser(t.db, { staff: { permissions: [PERMISSION.usersStaff] } });
    expect((await api('GET', '', undefined, other.token)).statusCode).toBe(403);
    const reader = await createUser(t.db, { staff: { permissions: [PERMISSION.systemTasks] } });
    expect((await api('GET', '', undefined, reader.token)).statusCode).toBe(200);
    expect((await api('GET', '/1/runs', undefined, reader.token)).statusCode).toBe(200);
    const body = { name: 'n', handler: 'auth.purge', cron: '0 1 * * *' };
    expect((await api('POST', '', body, reader.token)).statusCode).toBe(403);
    expect((await api('PATCH', '/1', { state: false }, reader.token)).statusCode).toBe(403);
    expect((await api('POST', '/1/run', undefined, reader.token)).statusCode).toBe(403);
    expect((await api('DELETE', '/1', undefined, reader.token)).statusCode).toBe(403);
    const writer = await createUser(t.db, {
      staff: { permissions: [PERMISSION.systemTasks, `${PERMISSION.systemTasks}.create`] },
    });
    expect((await api('POST', '', body, writer.token)).statusCode).toBe(201);
  });
});
