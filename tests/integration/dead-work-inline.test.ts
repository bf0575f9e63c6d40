import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../locales/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * A task run now on a server with jobs off (JOBS=0) runs in the request, with no pg-boss job for the reaper
 * (issue 28, item 6, left over): when that server is killed mid-run the run stayed `running` for ever. The
 * run names its node; a run whose node stopped beating (or never had a row) for three heartbeats is closed
 * as failed, in the reader's language, when the run history is read, and by the scheduler's sync on servers
 * with jobs. The database is left as a kill leaves it; runs of live nodes, of this node and of jobs are not
 * touched.
 */
describe('runs made in a request whose server died', () => {
  let t: TestApp;
  let token = '';
  let taskId = '';

  beforeAll(async () => {
    t = await createTestApp({ heartbeatSeconds: 1 });
    token = await t.adminToken();
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/system/tasks',
      token,
      payload: { name: 'Trim inline', handler: 'activities.trim', cron: '0 0 1 1 *', state: false },
    });
    taskId = created.json().data.id as string;
    await t.db.query(
      `INSERT INTO cluster_nodes (id, host, pid, version, started_at, last_seen) VALUES
         ('deadinline', 'gone-host', 1, 'test', now() - interval '2 hours', now() - interval '1 hour'),
         ('liveinline', 'live-host', 2, 'test', now(), now() + interval '1 hour')`,
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const run = async (node: string | null, { jobId = null as string | null, ago = '1 minute' } = {}) =>
    String(
      (
        await t.db.query<{ id: string }>(
          `INSERT INTO task_runs (task_id, trigger, job_id, node, started_at)
           VALUES ($1, 'manual', $2, $3, now() - $4::interval) RETURNING id`,
          [taskId, jobId, node, ago],
        )
      ).rows[0]!.id,
    );
  const status = async (id: string) =>
    (
      await t.db.query<{ status: string; error: string | null }>(
        'SELECT status, error FROM task_runs WHERE id = $1',
        [id],
      )
    ).rows[0]!;

  it('records the node of a run made now, and finishes it', async () => {
    const answer = await t.request({ method: 'POST', url: `/api/v1/system/tasks/${taskId}/run`, token });
    expect(answer.statusCode).toBe(202);
    const runId = answer.json().data.run_id as string;
    const { rows } = await t.db.query<{ node: string | null; status: string }>(
      'SELECT node, status FROM task_runs WHERE id = $1',
      [runId],
    );
    expect(rows[0]!.status).toBe('succeeded');
    expect(rows[0]!.node).toMatch(/\S/);
  });

  it('closes the runs of a dead or unknown node when the history is read, and only those', async () => {
    const ofDead = await run('deadinline');
    const ofUnknown = await run('neverseen1');
    const ofLive = await run('liveinline');
    const justStarted = await run('neverseen2', { ago: '0 seconds' });
    const ofJob = await run('deadinline', { jobId: 'some-job' });
    const unnamed = await run(null);
    const history = await t.request({
      url: `/api/v1/system/tasks/${taskId}/runs?size=50`,
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(history.statusCode).toBe(200);
    const failed = { status: 'failed', error: translate('en', 'system.jobs.errors.server_stopped') };
    expect(await status(ofDead)).toEqual(failed);
    expect(await status(ofUnknown)).toEqual(failed);
    const listed = history.json().data.data as { id: string; status: string }[];
    expect(listed.find((r) => r.id === ofDead)?.status).toBe('failed');
    for (const id of [ofLive, justStarted, ofJob, unnamed])
      expect((await status(id)).status, id).toBe('running');
  });
});
