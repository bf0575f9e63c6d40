import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTaskHandler } from '../../server/modules/tasks/handlers.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';
import { eventually } from '../helpers/eventually.ts';

// A handler only this file's server offers: quick, always succeeds.
const lifecycleHandler = defineTaskHandler({
  name: 'test.lifecycle',
  description: 'system.tasks.handlers.auth_purge',
  params: z.object({}).strict(),
  async run() {
    return { ok: true };
  },
});

/**
 * Lifecycles that must not half-fail (issue 11): a scheduled task that has run, with its runs and queued
 * pg-boss jobs, is deleted, re-created under the same name, renamed; after each step the API keeps
 * answering (no 5xx), and the queue follows the table.
 */
describe('scheduled task lifecycle with runs and queued jobs', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(
      { jobs: true, jobsPollSeconds: 0.5, jobsCronSeconds: 1 },
      { extraTaskHandlers: [lifecycleHandler] },
    );
    admin = await t.adminToken();
  });
  afterAll(() => t?.close());

  const api = (method: string, url: string, payload?: unknown) =>
    t.request({
      method: method as 'GET',
      url: `/api/v1/system/tasks${url}`,
      payload: payload as object,
      token: admin,
    });
  const succeeded = (id: string) =>
    eventually(
      async () => {
        const runs = (await api('GET', `/${id}/runs`)).json().data.data as { status: string }[];
        expect(runs.map((r) => r.status)).toContain('succeeded');
      },
      { timeoutMs: 20_000, intervalMs: 200, what: `a succeeded run of task ${id}` },
    );
  const body = (name: string) => ({ name, handler: 'test.lifecycle', cron: '* * * * *', timezone: 'UTC' });

  it('deletes a task that has run and has queued jobs, then creates, renames and deletes again', async () => {
    const created = await api('POST', '', body('Every minute'));
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    // A run that finished, and one more job queued behind it.
    expect((await api('POST', `/${id}/run`)).statusCode).toBe(202);
    await succeeded(id);
    expect((await api('POST', `/${id}/run`)).statusCode).toBe(202);

    const deleted = await api('DELETE', `/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await api('GET', `/${id}`)).statusCode).toBe(404);
    expect((await api('GET', `/${id}/runs`)).statusCode).toBe(404);

    // Every later create and update works, and the re-created task runs.
    const again = await api('POST', '', body('Every minute'));
    expect(again.statusCode).toBe(201);
    const second = again.json().data.id as string;
    const renamed = await api('PATCH', `/${second}`, { name: 'Renamed', state: false });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Renamed', state: false });
    expect((await api('PATCH', `/${second}`, { state: true })).statusCode).toBe(200);
    expect((await api('POST', `/${second}/run`)).statusCode).toBe(202);
    await succeeded(second);
    expect((await api('DELETE', `/${second}`)).statusCode).toBe(200);
    const third = await api('POST', '', body('Third'));
    expect(third.statusCode).toBe(201);
    expect((await api('DELETE', `/${third.json().data.id as string}`)).statusCode).toBe(200);
    expect((await api('GET', '')).statusCode).toBe(200);
  });

  it('answers 404 for task ids that name no record (non-numeric, above bigint)', async () => {
    for (const id of ['abc', '9223372036854775808', '99999999999999999999'])
      for (const [method, url] of [
        ['GET', `/${id}`],
        ['GET', `/${id}/runs`],
        ['PATCH', `/${id}`],
        ['DELETE', `/${id}`],
        ['POST', `/${id}/run`],
      ] as const) {
        const res = await api(method, url, method === 'PATCH' ? { name: 'x' } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 404, data: null });
      }
  });
});

describe('invitation lifecycle', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, token: string | undefined, payload?: object) =>
    t.request({
      method: method as 'GET',
      url: `/api/${url}`,
      token,
      headers: { 'accept-language': 'en' },
      ...(payload ? { payload } : {}),
    });
  const tokenOf = (url: string) => new URL(url).searchParams.get('invitation')!;

  it('issue, re-issue, join twice at once, re-issue after joining, delete: never a 5xx', async () => {
    const a = (await call('POST', 'v1/user/staff', admin, { name: 'Ann' })).json().data;
    const b = (await call('POST', 'v1/user/staff', admin, { name: 'Bea' })).json().data;
    const reissued = await call('POST', `v1/user/staff/${a.id}/invitation`, admin);
    expect(reissued.statusCode).toBe(200);
    const user = await createUser(t.db);
    // The same user redeems two invitations at the same time: one wins, the other is a 409 (the staff
    // table's unique user_id), not a 500.
    const [first, second] = await Promise.all([
      call('POST', 'v1/user/join', user.token, { invitation: tokenOf(reissued.json().data.invitation_url) }),
      call('POST', 'v1/user/join', user.token, { invitation: tokenOf(b.invitation_url) }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    for (const res of [first, second]) expect(res.json()).toHaveProperty('code', res.statusCode);
    const joinedId = first.statusCode === 200 ? a.id : b.id;
    const otherId = first.statusCode === 200 ? b.id : a.id;
    expect((await call('POST', `v1/user/staff/${joinedId}/invitation`, admin)).statusCode).toBe(409);
    expect((await call('POST', `v1/user/staff/${otherId}/invitation`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `v1/user/staff/${otherId}`, admin)).statusCode).toBe(200);
    expect((await call('POST', `v1/user/staff/${otherId}/invitation`, admin)).statusCode).toBe(404);
    expect((await call('GET', 'v1/user/staff', admin)).statusCode).toBe(200);
  });
});
