import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/** Users (create, disable, password, sign-in history), invitations and joining, and the menus call. */
let t: TestApp;
let admin: string;

const call = (method: string, url: string, token: string | undefined, payload?: object) =>
  t.request({
    method: method as 'GET',
    url: `/api/${url}`,
    token,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });
const login = (username: string, password: string) =>
  call('POST', 'v1/user/login', undefined, { username, password, remember: false });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('users', () => {
  it('an administrator creates an account; the password is hashed and never returned', async () => {
    const res = await call('POST', 'v1/user/users', admin, {
      username: 'carol',
      name: 'Carol',
      email: 'carol@example.com',
      password: 'violet tangerine harbor',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ username: 'carol', state: true, last_login_at: null });
    expect(res.body).not.toContain('violet');
    expect(res.body).not.toContain('password');
    const { rows } = await t.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE username = 'carol'",
    );
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect((await login('carol', 'violet tangerine harbor')).statusCode).toBe(200);
    const dup = await call('POST', 'v1/user/users', admin, { username: 'carol' });
    expect(dup.statusCode).toBe(409);
    const weak = await call('POST', 'v1/user/users', admin, { username: 'dave', password: 'password' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toBeTruthy();
  });

  it('disabling an account revokes its tokens; re-enabling does not bring them back', async () => {
    const user = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
    expect((await call('GET', 'v1/user/profile', user.token)).statusCode).toBe(200);
    expect((await call('PATCH', `v1/user/users/${user.userId}`, admin, { state: false })).statusCode).toBe(
      200,
    );
    expect((await call('GET', 'v1/user/profile', user.token)).statusCode).toBe(401);
    await call('PATCH', `v1/user/users/${user.userId}`, admin, { state: true });
    expect((await call('GET', 'v1/user/profile', user.token)).statusCode).toBe(401);
    const { rows } = await t.db.query(
      'SELECT 1 FROM access_tokens WHERE user_id = $1 AND revoked_at IS NULL',
      [user.userId],
    );
    expect(rows).toHaveLength(0);
  });

  it('setting a new password revokes every token; the new one signs in, the old one does not', async () => {
    const created = (
      await call('POST', 'v1/user/users', admin, { username: 'erin', password: 'first secret phrase' })
    ).json().data;
    const token = (await login('erin', 'first secret phrase')).json().data.access_token;
    expect((await call('GET', 'v1/user/profile', token)).statusCode).toBe(200);
    const res = await call('PATCH', `v1/user/users/${created.id}`, admin, {
      password: 'second secret phrase',
    });
    expect(res.statusCode).toBe(200);
    expect((await call('GET', 'v1/user/profile', token)).statusCode).toBe(401);
    expect((await login('erin', 'first secret phrase')).statusCode).toBe(422);
    expect((await login('erin', 'second secret phrase')).statusCode).toBe(200);
    const audit = await t.db.query<{ changes: Record<string, unknown> }>(
      "SELECT changes FROM activity_logs WHERE action = 'users.update' AND subject_id = $1",
      [created.id],
    );
    expect(JSON.stringify(audit.rows)).not.toContain('second secret');
  });

  it('lists the sign-in history of an account, newest first', async () => {
    const created = (
      await call('POST', 'v1/user/users', admin, { username: 'frank', password: 'frank likes tea' })
    ).json().data;
    await login('frank', 'wrong password here');
    await login('frank', 'frank likes tea');
    const res = await call('GET', `v1/user/users/${created.id}/logins`, admin);
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json().data;
    expect(data.map((r: { action: string }) => r.action)).toEqual(['auth.login', 'auth.login_failed']);
    expect(meta.pagination.total).toBe(2);
    const reader = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
    expect((await call('GET', `v1/user/users/${created.id}/logins`, reader.token)).statusCode).toBe(403);
  });
});

describe('invitations and joining', () => {
  const tokenOf = (url: string) => new URL(url).searchParams.get('invitation')!;

  it('binds the signed-in user once; the link is single use', async () => {
    const staff = (await call('POST', 'v1/user/staff', admin, { name: 'Gina' })).json().data;
    const invitation = tokenOf(staff.invitation_url);
    const gina = await createUser(t.db);
    expect((await call('GET', 'v1/system/menus', gina.token)).statusCode).toBe(403);
    expect((await call('POST', 'v1/user/join', gina.token, { invitation: 'nope' })).statusCode).toBe(422);
    const joined = await call('POST', 'v1/user/join', gina.token, { invitation });
    expect(joined.statusCode).toBe(200);
    expect(joined.json().data.staff_id).toBe(staff.id);
    expect((await call('GET', 'v1/system/menus', gina.token)).statusCode).toBe(200);
    const record = (await call('GET', `v1/user/staff/${staff.id}`, admin)).json().data;
    expect(record).toMatchObject({ registered: true, user_id: gina.userId, invitation_url: null });

    const other = await createUser(t.db);
    expect((await call('POST', 'v1/user/join', other.token, { invitation })).statusCode).toBe(422);
    const again = (await call('POST', 'v1/user/staff', admin, { name: 'Gina 2' })).json().data;
    const twice = await call('POST', 'v1/user/join', gina.token, {
      invitation: tokenOf(again.invitation_url),
    });
    expect(twice.statusCode).toBe(409);
    expect((await call('POST', `v1/user/staff/${staff.id}/invitation`, admin)).statusCode).toBe(409);
    expect((await call('POST', 'v1/user/join', undefined, { invitation })).statusCode).toBe(401);
  });

  it('re-issuing replaces the link; an expired link is refused', async () => {
    const staff = (await call('POST', 'v1/user/staff', admin, { name: 'Hank' })).json().data;
    const reissued = await call('POST', `v1/user/staff/${staff.id}/invitation`, admin);
    expect(reissued.statusCode).toBe(200);
    const fresh = reissued.json().data.invitation_url;
    expect(fresh).not.toBe(staff.invitation_url);
    const hank = await createUser(t.db);
    const old = await call('POST', 'v1/user/join', hank.token, { invitation: tokenOf(staff.invitation_url) });
    expect(old.statusCode).toBe(422);
    await t.db.query("UPDATE staff SET invitation_expires_at = now() - interval '1 second' WHERE id = $1", [
      staff.id,
    ]);
    expect((await call('POST', 'v1/user/join', hank.token, { invitation: tokenOf(fresh) })).statusCode).toBe(
      422,
    );
    const clerk = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
    expect((await call('POST', `v1/user/staff/${staff.id}/invitation`, clerk.token)).statusCode).toBe(403);
    const boss = (await call('POST', 'v1/user/staff', admin, { name: 'Boss', is_admin: 1 })).json().data;
    const updater = await createUser(t.db, {
      staff: { permissions: ['system.users.staff', 'system.users.staff.update'] },
    });
    expect((await call('POST', `v1/user/staff/${boss.id}/invitation`, updater.token)).statusCode).toBe(403);
  });
});

describe('GET v1/system/menus', () => {
  const names = (items: { name: string | null; children?: unknown[] }[]): unknown[] =>
    items.map((i) => (i.children ? [i.name, names(i.children as typeof items)] : i.name));

  it('administrators see the whole tree', async () => {
    const res = await call('GET', 'v1/system/menus', admin);
    const tree = res.json().data;
    expect(tree.map((g: { name: string }) => g.name)).toEqual([
      'system.settings',
      'system.users',
      'system.system',
    ]);
    expect(tree[1].children.map((c: { name: string }) => c.name)).toContain('system.users.users');
    expect(tree[1]).toMatchObject({
      title: 'User',
      title_key: 'app.menu.users',
      icon: 'People',
      disabled: false,
    });
  });

  it('others see only held names, children filtered recursively (a child without its group is hidden)', async () => {
    const user = await createUser(t.db, {
      staff: {
        permissions: ['system.users', 'system.users.roles', 'system.users.staff', 'system.system.logs'],
      },
    });
    const res = await call('GET', 'v1/system/menus', user.token);
    expect(names(res.json().data)).toEqual([['system.users', ['system.users.staff', 'system.users.roles']]]);
    const zh = await t.request({
      url: '/api/v1/system/menus',
      token: user.token,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.json().data[0].children[0].title).toBe('员工');
  });
});

describe('invitation links with PUBLIC_ORIGIN', () => {
  it('use the configured origin, never the Host header', async () => {
    // The Host is an allowed one (issue 12: any other Host gets 400), yet the link names PUBLIC_ORIGIN.
    const app = await createTestApp({
      publicOrigin: 'https://admin.example.com',
      allowedHosts: ['internal.example'],
    });
    try {
      const token = await app.adminToken();
      const created = await app.request({
        method: 'POST',
        url: '/api/v1/user/staff',
        token,
        headers: { host: 'internal.example' },
        payload: { name: 'Hana' },
      });
      expect(created.statusCode).toBe(201);
      const url = new URL(created.json().data.invitation_url);
      expect(url.origin).toBe('https://admin.example.com');
      expect(url.pathname).toBe('/register');
      const reissued = await app.request({
        method: 'POST',
        url: `/api/v1/user/staff/${created.json().data.id}/invitation`,
        token,
        headers: { host: 'internal.example' },
      });
      expect(new URL(reissued.json().data.invitation_url).origin).toBe('https://admin.example.com');
    } finally {
      await app.close();
    }
  });
});
