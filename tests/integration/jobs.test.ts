import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { queueCounts } from '../../server/jobs/counts.ts';
import { defineQueue } from '../../server/jobs/runtime.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';
import { eventually } from '../helpers/eventually.ts';

// Fails on the first attempt of each job, succeeds afterwards; reports progress on the way.
const attempts = new Map<string, number>();
defineQueue<{ key: string }>({
  name: 'test-flaky',
  options: { retryLimit: 0 },
  async handler({ id, data, progress }) {
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    await progress(50);
    if (n === 1) throw new Error(`first attempt of ${data.key} fails`);
    return { attempts: n };
  },
});
defineQueue<{ key: string }>({
  name: 'test-autoretry',
  options: { retryLimit: 2, retryDelay: 0 },
  async handler({ id }) {
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    if (n < 2) throw new Error('transient');
    return { attempts: n };
  },
});

interface Job {
  id: string;
  state: string;
  progress: number | null;
  error: string | null;
  retry_count: number;
  output: unknown;
}

describe('job queues', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true, jobsPollSeconds: 0.5, jobsCronSeconds: 1 });
    admin = await t.adminToken();
  });
  afterAll(() => t?.close());

  const api = (method: string, url: string, token = admin) =>
    t.request({ method: method as 'GET', url: `/api/v1/system/jobs${url}`, token });
  const job = async (queue: string, id: string) => (await api('GET', `/${queue}/${id}`)).json().data as Job;
  const waitState = (queue: string, id: string, state: string) =>
    eventually(
      async () => {
        const j = await job(queue, id);
        expect(j.state).toBe(state);
        return j;
      },
      { timeoutMs: 15_000, intervalMs: 200, what: `job ${id} to be ${state}` },
    );

  it('a job fails, is retried from the API and succeeds', async () => {
    const id = (await t.app.jobs.send('test-flaky', { key: 'a' }))!;
    const failed = await waitState('test-flaky', id, 'failed');
    expect(failed.error).toBe('first attempt of a fails');
    expect(JSON.stringify(failed)).not.toContain('at '); // no stack trace
    const retried = await api('POST', `/test-flaky/${id}/retry`);
    expect(retried.statusCode).toBe(200);
    const done = await waitState('test-flaky', id, 'completed');
    expect(done).toMatchObject({ progress: 100, output: { attempts: 2 }, retry_count: 1 });
    expect((await api('POST', `/test-flaky/${id}/retry`)).statusCode).toBe(409);
  });

  it('retries on its own within the queue retry limit', async () => {
    const id = (await t.app.jobs.send('test-autoretry', { key: 'b' }))!;
    const done = await waitState('test-autoretry', id, 'completed');
    expect(done.retry_count).toBe(1);
  });

  it('cancels a queued job, and only a queued one', async () => {
    const id = (await t.app.jobs.send('test-flaky', { key: 'later' }, { startAfter: 3600 }))!;
    expect((await job('test-flaky', id)).state).toBe('created');
    const res = await api('POST', `/test-flaky/${id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.state).toBe('cancelled');
    expect((await api('POST', `/test-flaky/${id}/cancel`)).statusCode).toBe(409);
  });

  it('lists queues with counts by state and jobs with a state filter', async () => {
    const queues = (await api('GET', '')).json().data as {
      name: string;
      task_name: string | null;
      counts: Record<string, number>;
    }[];
    const flaky = queues.find((q) => q.name === 'test-flaky')!;
    expect(flaky.counts).toMatchObject({ completed: 1, cancelled: 1, total: 2 });
    expect(queues.some((q) => q.name.startsWith('__pgboss'))).toBe(false);
    expect(await queueCounts(t.db)).toEqual(queues.map(({ task_name: _, ...q }) => q));
    const cancelled = (await api('GET', '/test-flaky?state=cancelled')).json().data;
    expect(cancelled.data).toHaveLength(1);
    expect(cancelled.meta.pagination.total).toBe(1);
    expect((await api('GET', '/test-flaky?state=bogus')).statusCode).toBe(422);
    expect((await api('GET', '/no-such-queue')).statusCode).toBe(404);
    expect((await api('GET', '/__pgboss__send-it')).statusCode).toBe(404);
    expect((await api('GET', '/test-flaky/not-a-uuid')).statusCode).toBe(404);
  });

  it("names a scheduled task's queue after the task, and other queues not at all", async () => {
    await expect
      .poll(async () => ((await api('GET', '')).json().data as { name: string }[]).some(isTaskQueue), {
        timeout: 15_000,
        interval: 200,
      })
      .toBe(true);
    const queues = (await api('GET', '')).json().data as { name: string; task_name: string | null }[];
    const { rows } = await t.db.query<{ id: string; name: string }>(
      'SELECT id::text AS id, name FROM scheduled_tasks',
    );
    const taskQueues = queues.filter(isTaskQueue);
    expect(taskQueues.length).toBeGreaterThan(0);
    for (const q of taskQueues)
      expect(q.task_name).toBe(rows.find((r) => `task-${r.id}` === q.name)?.name ?? null);
    expect(taskQueues.every((q) => q.task_name !== null)).toBe(true);
    expect(queues.find((q) => q.name === 'test-flaky')!.task_name).toBeNull();
  });

  it('needs system.system.jobs to read and .update to retry or cancel', async () => {
    expect((await t.request({ url: '/api/v1/system/jobs' })).statusCode).toBe(401);
    const other = await createUser(t.db, { staff: { permissions: [PERMISSION.systemTasks] } });
    expect((await api('GET', '', other.token)).statusCode).toBe(403);
    const reader = await createUser(t.db, { staff: { permissions: [PERMISSION.systemJobs] } });
    expect((await api('GET', '', reader.token)).statusCode).toBe(200);
    const id = (await t.app.jobs.send('test-flaky', { key: 'c' }, { startAfter: 3600 }))!;
    expect((await api('POST', `/test-flaky/${id}/cancel`, reader.token)).statusCode).toBe(403);
    expect((await job('test-flaky', id)).state).toBe('created');
  });
});

const isTaskQueue = (q: { name: string }) => /^task-\d+$/.test(q.name);
