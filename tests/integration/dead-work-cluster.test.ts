import pg from 'pg';
import { DEFAULT_LOCALE, translate } from '../../locales/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

/** Seconds between heartbeats on the servers: a node is gone after three of them. */
const HEARTBEAT_SECONDS = 1;
/** The issue asks for a dead node's work to be settled within about a minute. */
const SETTLE_WITHIN_MS = 60_000;

/**
 * Work cut off by a crash (issue 28, item 6): two real server processes (`server/main.ts`) on one
 * PostgreSQL, a job held mid-run, the server running it killed with SIGKILL; the survivor settles the job
 * once the dead node's heartbeat expires: an export runs once more and completes, a task's run is closed as
 * failed and the task never runs again for that job. PostgreSQL only: PGlite is one process's embedded
 * database, so there is no second server to survive (after a PGlite server's crash its restart settles the
 * old node's work the same way).
 *
 * "Mid-run" without a clock: the test holds an ACCESS EXCLUSIVE lock on the table the job reads (before the
 * job exists), so the job, once a server has taken it (its claim names the node), cannot finish until the
 * test lets go, which it does only after the kill. The jobs are put in their queue with SQL, like pg-boss's
 * `send`, because the requests that queue them through the API would wait on the same lock.
 */
describe.skipIf(!process.env.DATABASE_URL)('work of a killed server (PostgreSQL)', () => {
  let t: TestApp;
  const servers: ServerProcess[] = [];
  const env = () => ({
    DATABASE_URL: t.dbUrl!,
    ADMIN_PASSWORD: 'dead-work-admin-password-1',
    JOBS_POLL_SECONDS: '0.5',
    JOBS_CRON_SECONDS: '1',
    HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
  });
  let taskId = '';
  let adminId = '';

  beforeAll(async () => {
    // This app only reads and writes the database (no jobs); the two child processes do the work.
    t = await createTestApp({ jobs: false });
    const admin = await t.adminToken();
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/system/tasks',
      token: admin,
      payload: { name: 'Trim once', handler: 'activities.trim', cron: '0 0 1 1 *', state: false },
    });
    taskId = created.json().data.id as string;
    adminId = String(
      (await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]!.id,
    );
    servers.push(...(await Promise.all([startServerProcess(env()), startServerProcess(env())])));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await t?.close();
  }, 60_000);

  /** A connection of the test's own holding a table lock until `release()`. */
  const lockTable = async (table: string) => {
    const client = new pg.Client({ connectionString: t.dbUrl! });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return {
      release: async () => {
        await client.query('ROLLBACK');
        await client.end();
      },
    };
  };
  /** Waits for the queue to exist (a server's pg-boss made it), then puts a job in it; its id. */
  const enqueue = async (queue: string, data: object) => {
    await expect
      .poll(
        async () => (await t.db.query('SELECT 1 FROM pgboss.queue WHERE name = $1', [queue])).rows.length,
        { timeout: 60_000, interval: 200 },
      )
      .toBe(1);
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO pgboss.job (name, data, retry_limit) VALUES ($1, $2::jsonb, 0) RETURNING id::text AS id`,
      [queue, JSON.stringify(data)],
    );
    return rows[0]!.id;
  };
  const jobRow = async (id: string) =>
    (
      await t.db.query<{
        state: string;
        node: string | null;
        output: Record<string, unknown> | null;
        data: Record<string, unknown>;
      }>(`SELECT state::text AS state, output->>'node' AS node, output, data FROM pgboss.job WHERE id = $1`, [
        id,
      ])
    ).rows[0]!;
  /** Waits for a server to take the job, kills that server with SIGKILL; the killed node's id. */
  const killRunner = async (jobId: string) => {
    let node: string | null = null;
    await expect
      .poll(async () => (node = (await jobRow(jobId)).node), { timeout: 30_000, interval: 100 })
      .toBeTruthy();
    const { rows } = await t.db.query<{ pid: number }>('SELECT pid FROM cluster_nodes WHERE id = $1', [node]);
    const runner = servers.find((s) => s.pid === rows[0]!.pid);
    expect(runner, 'the job runs on one of the two servers').toBeDefined();
    runner!.kill('SIGKILL');
    servers.splice(servers.indexOf(runner!), 1);
    return node!;
  };

  it('an export whose server is killed mid-run runs once more on the survivor and completes', async () => {
    const lock = await lockTable('departments');
    let released = false;
    try {
      const id = await enqueue('csv-export', {
        resource: 'departments',
        user_id: adminId,
        locale: 'en',
        ip: null,
        user_agent: null,
        origin: null,
        query: {},
        name: 'departments.csv',
      });
      const dead = await killRunner(id);
      const killedAt = Date.now();
      await lock.release();
      released = true;
      // The survivor takes it over once the dead node's heartbeat expires, runs it once more, and it completes.
      await expect
        .poll(async () => (await jobRow(id)).state, { timeout: SETTLE_WITHIN_MS, interval: 250 })
        .toBe('completed');
      const settledMs = Date.now() - killedAt;
      const job = await jobRow(id);
      expect(job.data).toMatchObject({ rerun_after_server_stopped: true });
      expect(job.output).toMatchObject({ name: 'departments.csv' });
      expect(typeof job.output!.rows).toBe('number');
      console.log(`export: killed node ${dead}, completed on the survivor ${settledMs} ms after the kill`);
    } finally {
      if (!released) await lock.release();
    }
    // A new second server for the next case.
    servers.push(await startServerProcess(env()));
  }, 180_000);

  it('a task whose server is killed mid-run is closed as failed and never runs twice', async () => {
    const lock = await lockTable('activity_logs');
    let released = false;
    try {
      const id = await enqueue(`task-${taskId}`, { task_id: taskId, trigger: 'manual', user_id: adminId });
      const runs = async () =>
        (
          await t.db.query<{ status: string; error: string | null }>(
            'SELECT status, error FROM task_runs WHERE task_id = $1 ORDER BY id',
            [taskId],
          )
        ).rows;
      // The run has begun (its row says running) and waits on the lock.
      await expect
        .poll(async () => (await runs()).map((r) => r.status), { timeout: 30_000 })
        .toEqual(['running']);
      await killRunner(id);
      const killedAt = Date.now();
      await expect
        .poll(async () => (await jobRow(id)).state, { timeout: SETTLE_WITHIN_MS, interval: 250 })
        .toBe('failed');
      const settledMs = Date.now() - killedAt;
      await lock.release();
      released = true;
      // The task's job carries no language: the default one's message, on the run and on the job.
      const message = translate(DEFAULT_LOCALE, 'system.jobs.errors.server_stopped');
      expect(await runs()).toEqual([{ status: 'failed', error: message }]);
      expect((await jobRow(id)).output).toEqual({ message });
      // Never twice: a control job of the same task, queued after the settlement, runs (the survivor works
      // the queue) and is the only other run; the settled job stays failed.
      const control = await enqueue(`task-${taskId}`, {
        task_id: taskId,
        trigger: 'manual',
        user_id: adminId,
      });
      await expect
        .poll(async () => (await jobRow(control)).state, { timeout: 30_000, interval: 250 })
        .toBe('completed');
      expect((await runs()).map((r) => r.status)).toEqual(['failed', 'succeeded']);
      expect((await jobRow(id)).state).toBe('failed');
      console.log(`task: run closed and job failed ${settledMs} ms after the kill`);
    } finally {
      if (!released) await lock.release();
    }
  }, 180_000);
});
