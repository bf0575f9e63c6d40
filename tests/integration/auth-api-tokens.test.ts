import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 31, item 6: personal API tokens over HTTP against the real app and database.

let t: TestApp;
const PASSWORD = 'lunar-otter-plays-cello';
const DEPTS = 'system.users.departments';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A staff member holding one role with `names`; answers their ids and a signed-in session token. */
async function staffWith(username: string, names: string[]) {
  const { rows: users } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, true, $2) RETURNING id`,
    [username, await hashPassword(PASSWORD)],
  );
  const userId = users[0]!.id;
  const { rows: staff } = await t.db.query<{ id: string }>(
    `INSERT INTO staff (user_id, name) VALUES ($1, $2) RETURNING id`,
    [userId, username],
  );
  const { rows: roles } = await t.db.query<{ id: string }>(
    `INSERT INTO roles (name, permissions) VALUES ($1, $2) RETURNING id`,
    [`${username}-role`, JSON.stringify({ menu_ids: names })],
  );
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [
    staff[0]!.id,
    roles[0]!.id,
  ]);
  const login = await t.request({
    method: 'POST',
    url: '/api/v1/user/login',
    payload: { username, password: PASSWORD, remember: false },
    remoteAddress: `10.31.${users[0]!.id.length}.${Number(userId) % 250}`,
  });
  expect(login.statusCode).toBe(200);
  return {
    userId,
    staffId: staff[0]!.id,
    roleId: roles[0]!.id,
    session: login.json().data.access_token as string,
  };
}

const inAMonth = () => new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();

async function createToken(session: string, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/v1/user/tokens', token: session, payload: body });
}

describe('personal API tokens', () => {
  it('answers the secret once, lists the token without it, and works as a Bearer token without XSRF', async () => {
    const owner = await staffWith('tok-a', [DEPTS, `${DEPTS}.create`, 'system.users.staff']);
    const res = await createToken(owner.session, {
      name: 'deploy script',
      permissions: [DEPTS, `${DEPTS}.create`],
      expires_at: inAMonth(),
    });
    expect(res.statusCode).toBe(200);
    const created = res.json().data;
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.permissions).toEqual([DEPTS, `${DEPTS}.create`]);
    // The activity row writes the two permissions as a list change, which the log reads as "added".
    const { rows: made } = await t.db.query<{ changes: Record<string, unknown> }>(
      `SELECT changes FROM activity_logs WHERE action = 'auth.token_created' ORDER BY id DESC LIMIT 1`,
    );
    expect(made[0]!.changes.permissions).toEqual([[], [DEPTS, `${DEPTS}.create`]]);

    const list = await t.request({ method: 'GET', url: '/api/v1/user/tokens', token: owner.session });
    expect(list.json().data).toEqual([{ ...created, token: undefined }].map(({ token: _, ...rest }) => rest));
    expect(JSON.stringify(list.json())).not.toContain(created.token);
    // Only the hash is stored.
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM access_tokens WHERE token_hash = $1',
      [created.token],
    );
    expect(rows[0]!.n).toBe(0);

    // A script: no cookies, no XSRF header, only the Bearer token. It reads and writes within its scope ...
    const read = await t.request({ method: 'GET', url: '/api/v1/user/departments', token: created.token });
    expect(read.statusCode).toBe(200);
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/user/departments',
      token: created.token,
      payload: { name: 'Made by a token', parent_id: '0' },
    });
    expect(write.statusCode).toBe(201);
    // ... and the activity row names the token.
    const { rows: acts } = await t.db.query<{ operator_id: string; changes: { via_token?: unknown } }>(
      `SELECT operator_id, changes FROM activity_logs WHERE subject_type = 'departments' ORDER BY id DESC LIMIT 1`,
    );
    expect(String(acts[0]!.operator_id)).toBe(owner.userId);
    expect(acts[0]!.changes.via_token).toEqual({ id: created.id, name: 'deploy script' });
    // Its owner holds the staff page, the token does not.
    const staff = await t.request({ method: 'GET', url: '/api/v1/user/staff', token: created.token });
    expect(staff.statusCode).toBe(403);
    // A token cannot mint tokens or see sessions.
    expect(
      (await createToken(created.token, { name: 'x', permissions: [], expires_at: inAMonth() })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/user/sessions', token: created.token })).statusCode,
    ).toBe(403);
    // Tokens are not sessions.
    const sessions = await t.request({ method: 'GET', url: '/api/v1/user/sessions', token: owner.session });
    expect((sessions.json().data as Array<{ id: string }>).map((s) => s.id)).not.toContain(created.id);
  });

  it('refuses permissions the owner does not hold, and expiries in the past or too far away (422)', async () => {
    const owner = await staffWith('tok-b', [DEPTS]);
    const more = await createToken(owner.session, {
      name: 'greedy',
      permissions: [DEPTS, 'system.users.staff'],
      expires_at: inAMonth(),
    });
    expect(more.statusCode).toBe(422);
    expect(Object.keys(more.json().errors)).toEqual(['permissions']);
    for (const expires_at of [new Date(Date.now() - 1000).toISOString(), '2099-01-01T00:00:00Z']) {
      const res = await createToken(owner.session, { name: 'when', permissions: [DEPTS], expires_at });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['expires_at']);
    }
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM access_tokens WHERE user_id = $1 AND scope IS NOT NULL',
      [owner.userId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('narrows at once when the owner loses a role, and an administrator’s token is no administrator', async () => {
    const owner = await staffWith('tok-c', [DEPTS]);
    const token = (
      await createToken(owner.session, { name: 'n', permissions: [DEPTS], expires_at: inAMonth() })
    ).json().data.token as string;
    expect((await t.request({ method: 'GET', url: '/api/v1/user/departments', token })).statusCode).toBe(200);
    await t.db.query('DELETE FROM staff_roles WHERE role_id = $1', [owner.roleId]);
    await expect
      .poll(
        async () => (await t.request({ method: 'GET', url: '/api/v1/user/departments', token })).statusCode,
      )
      .toBe(403);

    const admin = await t.adminToken();
    const adminTok = (
      await createToken(admin, { name: 'a', permissions: [DEPTS], expires_at: inAMonth() })
    ).json().data.token as string;
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/user/departments', token: adminTok })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/roles', token: adminTok })).statusCode).toBe(
      403,
    );
  });

  it('sees the rows its owner sees: every department for an administrator’s token, the scope for a member’s', async () => {
    const admin = await t.adminToken();
    const names: string[] = [];
    for (const name of ['tok-scope-east', 'tok-scope-west']) {
      const made = await t.request({
        method: 'POST',
        url: '/api/v1/user/departments',
        token: admin,
        payload: { name },
      });
      expect(made.statusCode).toBe(201);
      names.push(made.json().data.id as string);
    }
    const listed = async (token: string) =>
      (
        (await t.request({ method: 'GET', url: '/api/v1/user/departments?size=100', token })).json().data
          .data as {
          id: string;
        }[]
      ).map((d) => d.id);
    const adminTok = (
      await createToken(admin, { name: 'all rows', permissions: [DEPTS], expires_at: inAMonth() })
    ).json().data.token as string;
    expect(await listed(adminTok)).toEqual(await listed(admin));
    expect(await listed(adminTok)).toEqual(expect.arrayContaining(names));

    const owner = await staffWith('tok-scope', [DEPTS]);
    await t.db.query(`UPDATE roles SET data_scope = 'department' WHERE id = $1`, [owner.roleId]);
    await t.db.query('UPDATE staff SET department_id = $1 WHERE id = $2', [names[0], owner.staffId]);
    const memberTok = (
      await createToken(owner.session, { name: 'east', permissions: [DEPTS], expires_at: inAMonth() })
    ).json().data.token as string;
    await expect.poll(() => listed(memberTok)).toEqual([names[0]]);
  });

  it('is revoked on delete, on the owner’s password change and when the owner is disabled', async () => {
    const owner = await staffWith('tok-d', [DEPTS]);
    const make = async () =>
      (await createToken(owner.session, { name: 'r', permissions: [DEPTS], expires_at: inAMonth() })).json()
        .data as {
        id: string;
        token: string;
      };
    const status = async (token: string) =>
      (await t.request({ method: 'GET', url: '/api/v1/user/departments', token })).statusCode;

    const one = await make();
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/user/tokens/${one.id}`,
      token: owner.session,
    });
    expect(del.statusCode).toBe(200);
    expect(await status(one.token)).toBe(401);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/user/tokens/${one.id}`, token: owner.session }))
        .statusCode,
    ).toBe(404);

    const two = await make();
    const change = await t.request({
      method: 'POST',
      url: '/api/v1/user/password',
      token: owner.session,
      payload: {
        old_password: PASSWORD,
        password: 'quiet-heron-folds-maps',
        password_confirmation: 'quiet-heron-folds-maps',
      },
    });
    expect(change.statusCode).toBe(200);
    expect(await status(two.token)).toBe(401);

    const three = await make();
    expect(await status(three.token)).toBe(200);
    await t.db.query('UPDATE users SET state = false WHERE id = $1', [owner.userId]);
    await expect.poll(() => status(three.token)).toBe(401);
  });
});
