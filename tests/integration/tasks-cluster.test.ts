import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

/** pg-boss's timekeeper queue: one job per schedule per minute (its singleton slot), which sends the run. */
const SEND_IT = '__pgboss__send-it';
const PENDING = ['created', 'retry', 'active'];
/**
 * pg-boss's tick on both servers (JOBS_TICK_SECONDS): a cron minute lasts 4 s, so the every-minute task
 * fires every 4 s and the next "minute" comes within seconds instead of up to a minute.
 */
const TICK = 4;

/**
 * Two server processes against one PostgreSQL: this test's app and `server/main.ts` in a child process,
 * each with its own pg-boss (the child through DATABASE_URL, i.e. pg-boss's own pool). Each scheduled minute
 * runs once. Only under `npm run test:pg`: PGlite is an embedded, single-process database, so there cannot
 * be a second server on it.
 *
 * No wall clock: the task runs every minute (every tick), so its first run comes whatever the second is;
 * pg-boss sending the next minute is the control event (every check of the first minute, on both servers, is over by then),
 * and the count is read once nothing is pending, in one snapshot.
 */
describe.skipIf(!process.env.DATABASE_URL)('scheduled tasks on two servers (PostgreSQL)', () => {
  let t: TestApp;
  let child: ServerProcess | null = null;

  beforeAll(async () => {
    t = await createTestApp({ jobs: true, jobsPollSeconds: 0.5, jobsCronSeconds: 1, jobsTickSeconds: TICK });
  }, 60_000);
  afterAll(async () => {
    await child?.stop();
    await t?.close();
  }, 30_000);

  it('runs each scheduled minute once although both servers schedule and work it', async () => {
    const admin = await t.adminToken();
    const api = (method: string, url: string, payload?: object) =>
      t.request({ method: method as 'GET', url: `/api/v1/system/tasks${url}`, payload, token: admin });
    // Created disabled, so the second server works its queue before the schedule exists.
    const created = await api('POST', '', {
      name: 'Every minute',
      handler: 'activities.trim',
      cron: '0 0 1 1 *',
      state: false,
    });
    const id = created.json().data.id as string;
    const queue = `task-${id}`;

    // Ready means listening, which Fastify does after the onReady hooks: the child's pg-boss has started
    // (timekeeper and workers) and its scheduler has synced the tasks, this one's queue included.
    child = await startServerProcess({
      DATABASE_URL: t.dbUrl!,
      ADMIN_PASSWORD: 'cluster-admin-password-1',
      JOBS_CRON_SECONDS: '1',
      JOBS_POLL_SECONDS: '0.5',
      JOBS_TICK_SECONDS: String(TICK),
    });

    expect((await api('PATCH', `/${id}`, { state: true, cron: '* * * * *' })).statusCode).toBe(200);
    // One statement, one snapshot: the minutes pg-boss's timekeeper sent (one send-it job per schedule and
    // minute, its singleton slot of one tick), the jobs in the task's queue, and the runs.
    const snapshot = async () =>
      (
        await t.db.query<{
          slots: number;
          sends: number;
          jobs: number;
          runs: number;
          failed: number;
          pending: number;
        }>(
          `SELECT
             (SELECT count(DISTINCT singleton_on)::int FROM pgboss.job WHERE name = $1 AND singleton_key = $2) AS slots,
             (SELECT count(*)::int FROM pgboss.job WHERE name = $1 AND singleton_key = $2) AS sends,
             (SELECT count(*)::int FROM pgboss.job WHERE name = $2) AS jobs,
             (SELECT count(*)::int FROM task_runs WHERE task_id = $3) AS runs,
             (SELECT count(*)::int FROM task_runs WHERE task_id = $3 AND status = 'failed') AS failed,
             (SELECT count(*)::int FROM pgboss.job WHERE name IN ($1, $2) AND state::text = ANY($4))
               + (SELECT count(*)::int FROM task_runs WHERE task_id = $3 AND status = 'running') AS pending`,
          [SEND_IT, queue, id, PENDING],
        )
      ).rows[0]!;
    const POLL = { interval: 250 };
    await expect.poll(async () => (await snapshot()).runs, { ...POLL, timeout: 20_000 }).toBeGreaterThan(0);
    // The control event: pg-boss's bookkeeping has moved on to the next minute (a second slot). Both
    // timekeepers check every second, so every check of the first minute has had its chance to send that
    // minute's run again by then.
    await expect.poll(async () => (await snapshot()).slots, { ...POLL, timeout: 30_000 }).toBeGreaterThan(1);
    // Counted once no send, job or run is pending (a later minute may have begun meanwhile; it counts whole).
    let settled = await snapshot();
    await expect.poll(async () => (settled = await snapshot()).pending, { ...POLL, timeout: 15_000 }).toBe(0);
    expect(settled.slots).toBeGreaterThanOrEqual(2);
    // Per minute: one send, one job, one run, and it succeeded.
    expect(settled).toEqual({
      slots: settled.slots,
      sends: settled.slots,
      jobs: settled.slots,
      runs: settled.slots,
      failed: 0,
      pending: 0,
    });
  }, 120_000);
});
