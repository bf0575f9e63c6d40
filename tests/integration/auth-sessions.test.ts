import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 31, item 5: the caller's live sign-ins, ending one, an administrator ending all of a user's.

let t: TestApp;
const PASSWORD = 'lunar-otter-plays-cello';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function createUser(username: string): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, true, $2) RETURNING id`,
    [username, await hashPassword(PASSWORD)],
  );
  return rows[0]!.id;
}

async function signIn(username: string, { ip, agent }: { ip: string; agent: string }): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/user/login',
    payload: { username, password: PASSWORD, remember: false },
    remoteAddress: ip,
    headers: { 'user-agent': agent },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.access_token as string;
}

const profileStatus = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api/v1/user/profile', token })).statusCode;

describe('sessions', () => {
  it('lists the live sign-ins with device, address and last seen, marking the current one', async () => {
    const userId = await createUser('sess-list');
    const desk = await signIn('sess-list', { ip: '10.9.0.1', agent: 'Desk browser' });
    const phone = await signIn('sess-list', { ip: '10.9.0.2', agent: 'Phone browser' });
    // A signed-out token is not live and is not listed.
    const gone = await signIn('sess-list', { ip: '10.9.0.3', agent: 'Gone browser' });
    expect((await t.request({ method: 'POST', url: '/api/v1/user/logout', token: gone })).statusCode).toBe(
      200,
    );

    const res = await t.request({ method: 'GET', url: '/api/v1/user/sessions', token: desk });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.ip, r.user_agent, r.current]).sort()).toEqual([
      ['10.9.0.1', 'Desk browser', true],
      ['10.9.0.2', 'Phone browser', false],
    ]);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([
        'created_at',
        'current',
        'id',
        'ip',
        'last_seen_at',
        'user_agent',
      ]);
      expect(Number.isNaN(Date.parse(String(row.last_seen_at)))).toBe(false);
    }
    // Another user's sessions are never listed.
    const other = await t.request({
      method: 'GET',
      url: '/api/v1/user/sessions',
      token: await t.adminToken(),
    });
    expect((other.json().data as Array<{ user_agent: string }>).map((r) => r.user_agent)).not.toContain(
      'Phone browser',
    );
    expect(userId).toMatch(/^\d+$/);
    expect(await profileStatus(phone)).toBe(200);
  });

  it('ends one session: its token stops working at once, the others keep working, and it is audited', async () => {
    const userId = await createUser('sess-end');
    const desk = await signIn('sess-end', { ip: '10.9.1.1', agent: 'Desk' });
    const phone = await signIn('sess-end', { ip: '10.9.1.2', agent: 'Phone' });
    const list = await t.request({ method: 'GET', url: '/api/v1/user/sessions', token: desk });
    const phoneId = (list.json().data as Array<{ id: string; user_agent: string }>).find(
      (r) => r.user_agent === 'Phone',
    )!.id;

    const res = await t.request({ method: 'DELETE', url: `/api/v1/user/sessions/${phoneId}`, token: desk });
    expect(res.statusCode).toBe(200);
    expect(await profileStatus(phone)).toBe(401);
    expect(await profileStatus(desk)).toBe(200);
    // Ending it again, or an id that is not a live session, is a 404.
    const again = await t.request({ method: 'DELETE', url: `/api/v1/user/sessions/${phoneId}`, token: desk });
    expect(again.statusCode).toBe(404);
    const { rows } = await t.db.query<{ changes: { session_id: string } }>(
      `SELECT changes FROM activity_logs WHERE action = 'auth.session_ended' AND subject_id = $1`,
      [userId],
    );
    expect(rows.map((r) => r.changes.session_id)).toEqual([phoneId]);
  });

  it("cannot end another user's session: a 404, and that session keeps working", async () => {
    await createUser('sess-victim');
    await createUser('sess-intruder');
    const victim = await signIn('sess-victim', { ip: '10.9.2.1', agent: 'Victim' });
    const intruder = await signIn('sess-intruder', { ip: '10.9.2.2', agent: 'Intruder' });
    const list = await t.request({ method: 'GET', url: '/api/v1/user/sessions', token: victim });
    const victimId = (list.json().data as Array<{ id: string }>)[0]!.id;
    const res = await t.request({
      method: 'DELETE',
      url: `/api/v1/user/sessions/${victimId}`,
      token: intruder,
    });
    expect(res.statusCode).toBe(404);
    expect(await profileStatus(victim)).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/user/sessions' })).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: '/api/v1/user/sessions/1' })).statusCode).toBe(401);
  });

  it('an administrator ends every session of a user; a user without the permission gets 403', async () => {
    const userId = await createUser('sess-all');
    const one = await signIn('sess-all', { ip: '10.9.3.1', agent: 'One' });
    const two = await signIn('sess-all', { ip: '10.9.3.2', agent: 'Two' });

    const denied = await t.request({
      method: 'DELETE',
      url: `/api/v1/user/users/${userId}/sessions`,
      token: one,
    });
    expect(denied.statusCode).toBe(403);
    expect(await profileStatus(two)).toBe(200);

    const admin = await t.adminToken();
    const res = await t.request({
      method: 'DELETE',
      url: `/api/v1/user/users/${userId}/sessions`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ended: 2 });
    expect(await profileStatus(one)).toBe(401);
    expect(await profileStatus(two)).toBe(401);
    expect(await profileStatus(admin)).toBe(200);
    const { rows } = await t.db.query<{ operator_id: string }>(
      `SELECT operator_id FROM activity_logs WHERE action = 'auth.sessions_ended' AND subject_id = $1`,
      [userId],
    );
    expect(rows).toHaveLength(1);
  });
});
