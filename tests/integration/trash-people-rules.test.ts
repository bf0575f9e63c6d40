import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * The people rules hold on the trash's restore (review of issue 36): a restore is a write, so the resource's
 * `beforeWrite` hook judges the record coming back as it judges any write of it. Without that, a staff
 * manager who may not touch an administrator could bring back an administrator an administrator had
 * deleted (and with it that account's administrator powers), and a role editor could bring back a role
 * granting names it does not hold.
 */
const STAFF = '/api/v1/user/staff';
const ROLES = '/api/v1/user/roles';
const USERS = '/api/v1/user/users';

let t: TestApp;
let admin: string;
let manager: TestUser;

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  t.request({ method, url, token, headers: { 'accept-language': 'en' }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  manager = await createUser(t.db, {
    staff: {
      permissions: [
        'system.users',
        'system.users.staff',
        'system.users.staff.update',
        'system.users.staff.delete',
        'system.users.roles',
        'system.users.roles.update',
        'system.users.roles.delete',
      ],
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('restore from the trash keeps the people rules', () => {
  it("a manager who is not an administrator cannot bring back an administrator's staff record", async () => {
    const boss = await createUser(t.db, { staff: { isAdmin: true } });
    const info = async () =>
      (await call('GET', '/api/v1/user/info', boss.token)).json().data as { is_admin: boolean };
    expect((await info()).is_admin).toBe(true);
    // The manager may not delete an administrator; an administrator may.
    expect((await call('DELETE', `${STAFF}/${boss.staffId}`, manager.token)).statusCode).toBe(403);
    expect((await call('DELETE', `${STAFF}/${boss.staffId}`, admin)).statusCode).toBe(200);
    await expect.poll(async () => (await info()).is_admin, { timeout: 10_000 }).toBe(false);

    const restore = await call('POST', `${STAFF}/trash/${boss.staffId}/restore`, manager.token);
    expect(restore.statusCode, restore.body).toBe(403);
    expect(restore.json().message).toBeTruthy();
    // Nothing came back: still in the trash, the account still without its powers.
    const trash = await call('GET', `${STAFF}/trash?size=100`, admin);
    expect(trash.statusCode, trash.body).toBe(200);
    expect(trash.json().data.data.map((r: { id: string }) => r.id)).toContain(boss.staffId);
    expect((await info()).is_admin).toBe(false);

    // An administrator may.
    const byAdmin = await call('POST', `${STAFF}/trash/${boss.staffId}/restore`, admin);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    await expect.poll(async () => (await info()).is_admin, { timeout: 10_000 }).toBe(true);
  });

  it('a role editor cannot bring back a role granting names it does not hold', async () => {
    const created = await call('POST', ROLES, admin, {
      name: 'Settings keeper',
      permissions: { menu_ids: ['system.settings', 'system.settings.general'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await call('DELETE', `${ROLES}/${id}`, admin)).statusCode).toBe(200);

    const restore = await call('POST', `${ROLES}/trash/${id}/restore`, manager.token);
    expect(restore.statusCode, restore.body).toBe(403);
    expect((await call('GET', `${ROLES}/${id}`, admin)).statusCode).toBe(404);

    // A role within the editor's own names comes back.
    const mine = await call('POST', ROLES, admin, {
      name: 'Staff reader',
      permissions: { menu_ids: ['system.users', 'system.users.staff'] },
    });
    const mineId = mine.json().data.id as string;
    expect((await call('DELETE', `${ROLES}/${mineId}`, admin)).statusCode).toBe(200);
    const back = await call('POST', `${ROLES}/trash/${mineId}/restore`, manager.token);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.id).toBe(mineId);
  });

  it("an account's sign-ins end with its delete and do not come back with its restore", async () => {
    // Disabling an account revokes its tokens; a delete (now to the trash) must too, or a restore would
    // bring back every session and API token it had, a stolen one included.
    const member = await createUser(t.db);
    const INFO = '/api/v1/user/info';
    expect((await call('GET', INFO, member.token)).statusCode).toBe(200);
    expect((await call('DELETE', `${USERS}/${member.userId}`, admin)).statusCode).toBe(200);
    expect((await call('GET', INFO, member.token)).statusCode).toBe(401);
    const back = await call('POST', `${USERS}/trash/${member.userId}/restore`, admin);
    expect(back.statusCode, back.body).toBe(200);
    expect((await call('GET', INFO, member.token)).statusCode).toBe(401);
    const { rows } = await t.db.query<{ live: string }>(
      'SELECT count(*) AS live FROM access_tokens WHERE user_id = $1 AND revoked_at IS NULL',
      [member.userId],
    );
    expect(Number(rows[0]!.live)).toBe(0);
  });

  it('a manager who may not delete an administrator cannot purge one from the trash either', async () => {
    const boss = await createUser(t.db, { staff: { isAdmin: true } });
    expect((await call('DELETE', `${STAFF}/${boss.staffId}`, admin)).statusCode).toBe(200);
    const purge = await call('DELETE', `${STAFF}/trash/${boss.staffId}`, manager.token);
    expect(purge.statusCode, purge.body).toBe(403);
    expect(purge.json().message).toBeTruthy();
    // Still in the trash, and still restorable by an administrator.
    const trash = await call('GET', `${STAFF}/trash?size=100`, admin);
    expect(trash.json().data.data.map((r: { id: string }) => r.id)).toContain(boss.staffId);
    const { rows } = await t.db.query<{ trashed: boolean }>(
      'SELECT deleted_at IS NOT NULL AS trashed FROM staff WHERE id = $1',
      [boss.staffId],
    );
    expect(rows[0]?.trashed).toBe(true);

    // A member the manager may delete is purged for good; an administrator may purge the administrator.
    const member = await createUser(t.db, { staff: { permissions: ['system.users'] } });
    const trashed = await call('DELETE', `${STAFF}/${member.staffId}`, manager.token);
    expect(trashed.statusCode, trashed.body).toBe(200);
    const gone = await call('DELETE', `${STAFF}/trash/${member.staffId}`, manager.token);
    expect(gone.statusCode, gone.body).toBe(200);
    const byAdmin = await call('DELETE', `${STAFF}/trash/${boss.staffId}`, admin);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const left = await t.db.query('SELECT 1 FROM staff WHERE id = ANY($1::bigint[])', [
      [member.staffId, boss.staffId],
    ]);
    expect(left.rows).toHaveLength(0);
  });
});
