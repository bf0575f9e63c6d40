import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/** Enforcement of spec 6 and issue 5 on every people call: reading, writing, no self-escalation. */
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
const status = async (method: string, url: string, token: string | undefined, payload?: object) =>
  (await call(method, url, token, payload)).statusCode;

/** A staff member whose one role holds exactly `permissions`. */
const clerk = (permissions: string[]) => createUser(t.db, { staff: { permissions } });
const roleOf = async (user: TestUser) =>
  String(
    (
      await t.db.query<{ role_id: string }>('SELECT role_id FROM staff_roles WHERE staff_id = $1', [
        user.staffId,
      ])
    ).rows[0]!.role_id,
  );
const newRole = async (menuIds: string[]) =>
  (
    await call('POST', 'v1/user/roles', admin, {
      name: `r${Math.random()}`,
      permissions: { menu_ids: menuIds },
    })
  ).json().data.id as string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const READS = [
  'v1/user/users',
  'v1/user/staff',
  'v1/user/roles',
  'v1/user/departments',
  'v1/user/department/tree',
  'v1/system/menus',
];

describe('who may call', () => {
  it('anonymous gets 401 and a signed-in non-staff user 403 on every call', async () => {
    const outsider = await createUser(t.db);
    for (const url of READS) {
      expect(await status('GET', url, undefined), url).toBe(401);
      expect(await status('GET', url, outsider.token), url).toBe(403);
    }
    for (const url of ['v1/user/users', 'v1/user/staff', 'v1/user/roles', 'v1/user/departments'])
      expect(await status('POST', url, outsider.token, { name: 'x' }), url).toBe(403);
    expect(await status('POST', 'v1/user/staff/1/invitation', outsider.token)).toBe(403);
    expect(await status('GET', 'v1/user/users/1/logins', outsider.token)).toBe(403);
  });

  it('a page name allows reading only; each write needs its action name', async () => {
    const reader = await clerk(['system.users.roles']);
    expect(await status('GET', 'v1/user/roles', reader.token)).toBe(200);
    expect(await status('GET', 'v1/user/staff', reader.token)).toBe(403);
    expect(await status('POST', 'v1/user/roles', reader.token, { name: 'nope' })).toBe(403);
    const id = await newRole([]);
    expect(await status('PATCH', `v1/user/roles/${id}`, reader.token, { intro: 'x' })).toBe(403);
    expect(await status('DELETE', `v1/user/roles/${id}`, reader.token)).toBe(403);
    expect(await status('GET', 'v1/user/roles/export', reader.token)).toBe(403);

    const writer = await clerk([
      'system.users.roles',
      'system.users.roles.create',
      'system.users.roles.delete',
    ]);
    expect(await status('POST', 'v1/user/roles', writer.token, { name: 'ok-role' })).toBe(201);
    expect(await status('PATCH', `v1/user/roles/${id}`, writer.token, { intro: 'x' })).toBe(403);
    expect(await status('DELETE', `v1/user/roles/${id}`, writer.token)).toBe(200);
  });

  it('the department tree is readable with the departments or the staff page', async () => {
    expect(await status('GET', 'v1/user/department/tree', (await clerk(['system.users.staff'])).token)).toBe(
      200,
    );
    expect(await status('GET', 'v1/user/department/tree', (await clerk(['system.users.roles'])).token)).toBe(
      403,
    );
  });
});

describe('no self-escalation', () => {
  const ROLE_ADMIN = [
    'system.users',
    'system.users.roles',
    'system.users.roles.create',
    'system.users.roles.update',
  ];
  const STAFF_ADMIN = [
    'system.users',
    'system.users.staff',
    'system.users.staff.create',
    'system.users.staff.update',
  ];

  it('nobody grants a name they do not hold (create, update, or enabling a role)', async () => {
    const editor = await clerk([...ROLE_ADMIN, 'system.users.staff']);
    const denied = await call('POST', 'v1/user/roles', editor.token, {
      name: 'sneaky',
      permissions: { menu_ids: ['system.users.staff', 'system.settings'] },
    });
    expect(denied.statusCode).toBe(403);
    const fine = await call('POST', 'v1/user/roles', editor.token, {
      name: 'fine',
      permissions: { menu_ids: ['system.users.staff'] },
    });
    expect(fine.statusCode).toBe(201);
    const id = fine.json().data.id;
    const grow = { permissions: { menu_ids: ['system.users.staff', 'system.users.users.update'] } };
    expect(await status('PATCH', `v1/user/roles/${id}`, editor.token, grow)).toBe(403);
    // A role holding a name the editor lacks cannot be touched by them at all (e.g. re-enabled).
    const strong = await newRole(['system.settings']);
    await call('PATCH', `v1/user/roles/${strong}`, admin, { state: false });
    expect(await status('PATCH', `v1/user/roles/${strong}`, editor.token, { state: true })).toBe(403);
  });

  it('unknown permission names are refused (422)', async () => {
    const res = await call('POST', 'v1/user/roles', admin, {
      name: 'bad',
      permissions: { menu_ids: ['root.*'] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.permissions).toBeTruthy();
  });

  it('nobody edits a role they are a member of', async () => {
    const editor = await clerk(ROLE_ADMIN);
    const own = await roleOf(editor);
    expect(await status('PATCH', `v1/user/roles/${own}`, editor.token, { intro: 'mine' })).toBe(403);
  });

  it('nobody gives themselves a role or edits their own roles, not even an administrator', async () => {
    const manager = await clerk(STAFF_ADMIN);
    const harmless = await newRole(['system.users.staff']);
    const res = await call('PATCH', `v1/user/staff/${manager.staffId}`, manager.token, {
      role_ids: [await roleOf(manager), harmless],
    });
    expect(res.statusCode).toBe(403);
    expect(await status('PATCH', `v1/user/staff/${manager.staffId}`, manager.token, { role_ids: [] })).toBe(
      403,
    );
    const root = await createUser(t.db, { staff: { isAdmin: true } });
    expect(await status('PATCH', `v1/user/staff/${root.staffId}`, root.token, { role_ids: [harmless] })).toBe(
      403,
    );
  });

  it('roles given to others grant only names the giver holds', async () => {
    const manager = await clerk(STAFF_ADMIN);
    const strong = await newRole(['system.settings', 'system.settings.general']);
    const weak = await newRole(['system.users.staff']);
    expect(await status('POST', 'v1/user/staff', manager.token, { name: 'S1', role_ids: [strong] })).toBe(
      403,
    );
    const created = await call('POST', 'v1/user/staff', manager.token, { name: 'S2', role_ids: [weak] });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect(await status('PATCH', `v1/user/staff/${id}`, manager.token, { role_ids: [weak, strong] })).toBe(
      403,
    );
  });

  it('only an administrator sets is_admin or touches an administrator', async () => {
    const manager = await clerk(STAFF_ADMIN);
    expect(await status('POST', 'v1/user/staff', manager.token, { name: 'Boss', is_admin: 1 })).toBe(403);
    expect(await status('PATCH', `v1/user/staff/${manager.staffId}`, manager.token, { is_admin: 1 })).toBe(
      403,
    );
    const other = (await call('POST', 'v1/user/staff', manager.token, { name: 'Other' })).json().data;
    expect(await status('PATCH', `v1/user/staff/${other.id}`, manager.token, { is_admin: 1 })).toBe(403);
    const root = await createUser(t.db, { staff: { isAdmin: true } });
    expect(await status('PATCH', `v1/user/staff/${root.staffId}`, manager.token, { state: false })).toBe(403);
    expect(
      await status(
        'PATCH',
        `v1/user/users/${root.userId}`,
        (await clerk(['system.users.users', 'system.users.users.update'])).token,
        { password: 'a brand new passphrase' },
      ),
    ).toBe(403);
    const res = await call('PATCH', `v1/user/staff/${other.id}`, admin, { is_admin: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.is_admin).toBe(1);
  });

  it('CSV import goes through the same rules', async () => {
    const importer = await clerk([...STAFF_ADMIN, 'system.users.staff.import']);
    const boundary = '----people-boundary';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="staff.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\nname,is_admin\r\nMallory,1\r\n--${boundary}--\r\n`;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/staff/import',
      token: importer.token,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    // The import runs each row through the write path and names the row the rule refused (issue 35).
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['rows.2._']);
    const { rows } = await t.db.query("SELECT 1 FROM staff WHERE name = 'Mallory'");
    expect(rows).toHaveLength(0);
  });

  it('nobody disables or deletes themselves; the last administrator stays', async () => {
    const { rows } = await t.db.query<{ id: string; user_id: string }>(
      "SELECT s.id, s.user_id FROM staff s JOIN users u ON u.id = s.user_id WHERE u.username = 'admin'",
    );
    const me = rows[0]!;
    expect(await status('PATCH', `v1/user/users/${me.user_id}`, admin, { state: false })).toBe(403);
    expect(await status('DELETE', `v1/user/users/${me.user_id}`, admin)).toBe(403);
    expect(await status('PATCH', `v1/user/staff/${me.id}`, admin, { state: false })).toBe(403);
    // Other administrators exist (created above): demote them all, then the first admin is the last one.
    const others = await t.db.query<{ id: string }>('SELECT id FROM staff WHERE is_admin = 1 AND id <> $1', [
      me.id,
    ]);
    for (const o of others.rows)
      expect(await status('PATCH', `v1/user/staff/${o.id}`, admin, { is_admin: 0 })).toBe(200);
    const last = await call('PATCH', `v1/user/staff/${me.id}`, admin, { is_admin: 0 });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toMatch(/last administrator/);
    expect(await status('DELETE', `v1/user/staff/${me.id}`, admin)).toBe(403);
    // A second administrator may demote the first, who is then no longer the last.
    const second = await createUser(t.db, { staff: { isAdmin: true } });
    expect(await status('PATCH', `v1/user/staff/${me.id}`, second.token, { is_admin: 0 })).toBe(200);
    expect(await status('PATCH', `v1/user/staff/${second.staffId}`, second.token, { is_admin: 0 })).toBe(409);
    expect(await status('PATCH', `v1/user/users/${second.userId}`, admin, { state: false })).toBe(403);
    await call('PATCH', `v1/user/staff/${me.id}`, second.token, { is_admin: 1 });
  });
});

describe('a role change applies on the very next request of every member', () => {
  it('removing a name, disabling the role and unlinking it each take effect at once', async () => {
    const a = await clerk(['system.users', 'system.users.staff']);
    const role = await roleOf(a);
    const b = await createUser(t.db, { staff: {} });
    await call('PATCH', `v1/user/staff/${b.staffId}`, admin, { role_ids: [role] });
    for (const member of [a, b]) expect(await status('GET', 'v1/user/staff', member.token)).toBe(200);
    const menu = (await call('GET', 'v1/system/menus', b.token)).json().data;
    expect(menu.map((g: { name: string }) => g.name)).toEqual(['system.users']);

    await call('PATCH', `v1/user/roles/${role}`, admin, { permissions: { menu_ids: ['system.users'] } });
    for (const member of [a, b]) expect(await status('GET', 'v1/user/staff', member.token)).toBe(403);

    await call('PATCH', `v1/user/roles/${role}`, admin, {
      permissions: { menu_ids: ['system.users', 'system.users.staff'] },
    });
    expect(await status('GET', 'v1/user/staff', a.token)).toBe(200);
    await call('PATCH', `v1/user/roles/${role}`, admin, { state: false });
    expect(await status('GET', 'v1/user/staff', a.token)).toBe(403);
    await call('PATCH', `v1/user/roles/${role}`, admin, { state: true });
    expect(await status('GET', 'v1/user/staff', b.token)).toBe(200);
    await call('PATCH', `v1/user/staff/${b.staffId}`, admin, { role_ids: [] });
    expect(await status('GET', 'v1/user/staff', b.token)).toBe(403);
    await call('PATCH', `v1/user/staff/${a.staffId}`, admin, { state: false });
    expect(await status('GET', 'v1/system/menus', a.token)).toBe(403);
  });
});
