import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, translate } from '../../locales/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * How a server settles the work of a node that died (issue 28, item 6), on both databases: the database is
 * left as a crash leaves it (a node whose heartbeat stopped an hour ago, jobs still `active` and claimed by
 * it, a task run still `running` or already finished), and the running server's own reaper, with 1-second
 * heartbeats, settles each as its queue says. The SIGKILL of real processes is
 * tests/integration/dead-work-cluster.test.ts (PostgreSQL); this file also covers the moments a kill cannot
 * be aimed at: a task whose run had finished but whose job was not yet completed, and an export cut off a
 * second time. On PGlite this is what a restarted server meets after its predecessor was killed.
 */
describe('work of a dead node', () => {
  let t: TestApp;
  let taskId = '';
  let adminId = '';

  beforeAll(async () => {
    t = await createTestApp({ jobs: true, jobsPollSeconds: 0.5, heartbeatSeconds: 1 });
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/system/tasks',
      token: await t.adminToken(),
      payload: { name: 'Trim once', handler: 'activities.trim', cron: '0 0 1 1 *', state: false },
    });
    taskId = created.json().data.id as string;
    adminId = String(
      (await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]!.id,
    );
    // A node that stopped beating an hour ago, and one that is alive (its last beat is in the future).
    await t.db.query(
      `INSERT INTO cluster_nodes (id, host, pid, version, started_at, last_seen) VALUES
         ('dead000001', 'gone-host', 1, 'test', now() - interval '2 hours', now() - interval '1 hour'),
         ('live000001', 'live-host', 2, 'test', now(), now() + interval '1 hour')`,
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** An `active` job as a crash leaves it: fetched, started, claimed by `node`. */
  const activeJob = async (queue: string, data: object, node: string) => {
    await expect
      .poll(
        async () => (await t.db.query('SELECT 1 FROM pgboss.queue WHERE name = $1', [queue])).rows.length,
        {
          timeout: 30_000,
        },
      )
      .toBe(1);
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO pgboss.job (name, data, state, retry_limit, started_on, output)
       VALUES ($1, $2::jsonb, 'active', 0, now(), jsonb_build_object('node', $3::text)) RETURNING id::text AS id`,
      [queue, JSON.stringify(data), node],
    );
    return rows[0]!.id;
  };
  const job = async (id: string) =>
    (
      await t.db.query<{
        state: string;
        output: Record<string, unknown> | null;
        data: Record<string, unknown>;
      }>('SELECT state::text AS state, output, data FROM pgboss.job WHERE id = $1', [id])
    ).rows[0]!;
  const runOf = async (jobId: string, status: string) =>
    String(
      (
        await t.db.query<{ id: string }>(
          `INSERT INTO task_runs (task_id, trigger, job_id, status, finished_at)
           VALUES ($1, 'manual', $2, $3, CASE WHEN $3 = 'running' THEN NULL ELSE now() END) RETURNING id`,
          [taskId, jobId, status],
        )
      ).rows[0]!.id,
    );
  const runs = async (jobId: string) =>
    (
      await t.db.query<{ status: string; error: string | null }>(
        'SELECT status, error FROM task_runs WHERE job_id = $1',
        [jobId],
      )
    ).rows;

  it('settles each dead node job as its queue says, and leaves a live node alone', async () => {
    const exportData = {
      resource: 'departments',
      user_id: adminId,
      locale: 'en',
      ip: null,
      user_agent: null,
      origin: null,
      query: {},
      name: 'departments.csv',
    };
    const queue = `task-${taskId}`;
    const taskData = { task_id: taskId, trigger: 'manual' };
    // A task cut off mid-run, one cut off after its run finished, and one running on a live node.
    const midRun = await activeJob(queue, taskData, 'dead000001');
    const midRunRun = await runOf(midRun, 'running');
    const finished = await activeJob(queue, taskData, 'dead000001');
    const finishedRun = await runOf(finished, 'succeeded');
    const alive = await activeJob(queue, taskData, 'live000001');
    await runOf(alive, 'running');
    // An export cut off once (runs once more) and one cut off a second time (fails).
    const exportOnce = await activeJob('csv-export', exportData, 'dead000001');
    const exportTwice = await activeJob(
      'csv-export',
      { ...exportData, rerun_after_server_stopped: true },
      'dead000001',
    );

    await expect.poll(async () => (await job(midRun)).state, { timeout: 30_000 }).toBe('failed');
    const stopped = translate(DEFAULT_LOCALE, 'system.jobs.errors.server_stopped');
    expect((await job(midRun)).output).toEqual({ message: stopped });
    expect(await runs(midRun)).toEqual([{ status: 'failed', error: stopped }]);
    // The finished run keeps its outcome; its job completes with the run's id; the task did not run again.
    await expect.poll(async () => (await job(finished)).state, { timeout: 30_000 }).toBe('completed');
    expect((await job(finished)).output).toEqual({ run_id: finishedRun });
    expect(await runs(finished)).toEqual([{ status: 'succeeded', error: null }]);
    expect(midRunRun).not.toBe(finishedRun);

    await expect.poll(async () => (await job(exportOnce)).state, { timeout: 30_000 }).toBe('completed');
    const rerun = await job(exportOnce);
    expect(rerun.data).toMatchObject({ rerun_after_server_stopped: true });
    expect(rerun.output).toMatchObject({ name: 'departments.csv', rows: expect.any(Number) });
    await expect.poll(async () => (await job(exportTwice)).state, { timeout: 30_000 }).toBe('failed');
    expect((await job(exportTwice)).output).toEqual({
      message: translate('en', 'system.jobs.errors.server_stopped'),
    });

    // The live node's job was looked at in the same passes and left running.
    expect((await job(alive)).state).toBe('active');
    expect((await runs(alive)).map((r) => r.status)).toEqual(['running']);
    // Task runs of this task: one per job, none added by the settlement.
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM task_runs WHERE task_id = $1',
      [taskId],
    );
    expect(rows[0]!.n).toBe(3);
  }, 90_000);
});
