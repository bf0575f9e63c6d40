import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Deleting a role with `?detach=1` takes it from every staff member holding it (contract "Deleting what
 * others hold"), which writes each holder's staff record. A role editor who is not an administrator may do
 * that only when every holder lies in their data scope on staff (issues 33/36); otherwise 403 naming how
 * many holders are outside it, and nothing changes. Administrators are not limited; the bulk delete never
 * detaches. Runs on PGlite and, under `npm run test:pg`, PostgreSQL.
 */
const ROLES = '/api/v1/user/roles';
const STAFF = '/api/v1/user/staff';

let t: TestApp;
let admin: string;
let editor: TestUser;
const departments: Record<'east' | 'west', string> = { east: '', west: '' };

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.request({
    method,
    url,
    token,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });

async function create(url: string, payload: object): Promise<string> {
  const answer = await api('POST', url, admin, payload);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as string;
}

let serial = 0;
/** A role granting the staff page, held by new staff members placed in the given departments. */
async function heldRole(placements: ('east' | 'west')[]): Promise<{ role: string; holders: string[] }> {
  serial += 1;
  const role = await create(ROLES, {
    name: `held ${serial}`,
    permissions: { menu_ids: ['system.users.staff'] },
  });
  const holders: string[] = [];
  for (const [i, where] of placements.entries())
    holders.push(
      await create(STAFF, {
        name: `Holder ${serial}-${i} ${where}`,
        department_id: departments[where],
        role_ids: [role],
      }),
    );
  return { role, holders };
}

const rolesOf = async (staffId: string): Promise<string[]> => {
  const answer = await api('GET', `${STAFF}/${staffId}`, admin);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data.role_ids as string[];
};
const roleExists = async (id: string) => (await api('GET', `${ROLES}/${id}`, admin)).statusCode === 200;
const staffUpdates = async (ids: string[]) => {
  const { rows } = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM activity_logs WHERE action = 'staff.update' AND subject_id::text = ANY($1::text[])`,
    [ids],
  );
  return Number(rows[0]!.n);
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  departments.east = await create('/api/v1/user/departments', { name: 'East' });
  departments.west = await create('/api/v1/user/departments', { name: 'West' });
  // The editor edits roles and sees the staff of its own department (East) only.
  const editorRole = await create(ROLES, {
    name: 'role editor (East)',
    permissions: {
      menu_ids: [
        'system.users.roles',
        'system.users.roles.delete',
        'system.users.staff',
        'system.users.staff.update',
      ],
    },
    data_scope: 'department',
  });
  editor = await createUser(t.db, { staff: {} });
  const placed = await api('PATCH', `${STAFF}/${editor.staffId}`, admin, {
    department_id: departments.east,
    role_ids: [editorRole],
  });
  expect(placed.statusCode, placed.body).toBe(200);
});
afterAll(() => t.close());

describe('deleting a held role with ?detach=1', () => {
  it('lets a non-administrator detach when every holder is in its scope, audited', async () => {
    const { role, holders } = await heldRole(['east', 'east']);
    const answer = await api('DELETE', `${ROLES}/${role}?detach=1`, editor.token);
    expect(answer.statusCode, answer.body).toBe(200);
    for (const holder of holders) expect(await rolesOf(holder)).toEqual([]);
    expect(await roleExists(role)).toBe(false);
    expect(await staffUpdates(holders)).toBe(2);
  });

  it('refuses a non-administrator (403, how many are outside, no names) when a holder is out of scope; nothing changes', async () => {
    const { role, holders } = await heldRole(['east', 'west', 'west']);
    // Without detach the 409 counts every holder, as before.
    const held = await api('DELETE', `${ROLES}/${role}`, editor.token);
    expect(held.statusCode, held.body).toBe(409);
    expect(held.json().errors.holders).toBe(3);

    const refused = await api('DELETE', `${ROLES}/${role}?detach=1`, editor.token);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe(
      'This role is also held by 2 staff outside your data scope; only someone who sees all its holders can remove it from them',
    );
    expect(refused.json().errors.outside).toBe(2);
    expect(refused.body).not.toMatch(/Holder|West/);
    const zh = await t.request({
      method: 'DELETE',
      url: `${ROLES}/${role}?detach=1`,
      token: editor.token,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.statusCode, zh.body).toBe(403);
    expect(zh.json().message).toContain('2 名您的数据范围之外的员工');

    expect(await roleExists(role)).toBe(true);
    for (const holder of holders) expect(await rolesOf(holder)).toEqual([role]);
    expect(await staffUpdates(holders)).toBe(0);

    // The bulk delete never detaches: the same 409 for anyone, nothing changed.
    const bulk = await api('DELETE', `${ROLES}?ids=${role}&detach=1`, editor.token);
    expect(bulk.statusCode, bulk.body).toBe(409);
    expect(await roleExists(role)).toBe(true);

    // An administrator is not limited: the role goes, each holder's change audited.
    const byAdmin = await api('DELETE', `${ROLES}/${role}?detach=1`, admin);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    for (const holder of holders) expect(await rolesOf(holder)).toEqual([]);
    expect(await roleExists(role)).toBe(false);
    expect(await staffUpdates(holders)).toBe(3);
  });

  it('refuses a non-administrator whose scope holds none of the holders', async () => {
    const { role, holders } = await heldRole(['west']);
    const refused = await api('DELETE', `${ROLES}/${role}?detach=1`, editor.token);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().errors.outside).toBe(1);
    expect(await rolesOf(holders[0]!)).toEqual([role]);
  });
});
