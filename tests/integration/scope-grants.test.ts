import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * A role editor who is not an administrator cannot hand out more than it sees itself (issue 30): a data
 * scope wider than its own, departments outside its reach, or fields of a granted page it may not see or
 * change. Administrators are not limited.
 */
let t: TestApp;
let admin: string;
const ids: Record<string, string> = {};
const editors: Record<'department' | 'below', TestUser> = {} as never;

const api = (method: string, url: string, token: string, payload?: unknown) =>
  t.request({
    method: method as 'POST',
    url,
    token,
    payload: payload as object,
    headers: { 'accept-language': 'en' },
  });

async function create(url: string, payload: object): Promise<string> {
  const answer = await api('POST', url, admin, payload);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as string;
}

const EDITOR_GRANTS = [
  'system.users.roles',
  'system.users.roles.create',
  'system.users.roles.update',
  'system.users.staff',
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  ids.east = await create('/api/v1/user/departments', { name: 'East' });
  ids.eastSales = await create('/api/v1/user/departments', { name: 'East sales', parent_id: ids.east });
  ids.west = await create('/api/v1/user/departments', { name: 'West' });
  for (const [key, scope] of [
    ['department', 'department'],
    ['below', 'department_and_below'],
  ] as const) {
    const role = await create('/api/v1/user/roles', {
      name: `editor ${key}`,
      permissions: { menu_ids: EDITOR_GRANTS },
      data_scope: scope,
      field_access: { 'staff.phone': 'hidden', 'staff.email': 'read' },
    });
    const user = await createUser(t.db, { staff: {} });
    const placed = await api('PATCH', `/api/v1/user/staff/${user.staffId}`, admin, {
      department_id: ids.east,
      role_ids: [role],
    });
    expect(placed.statusCode, placed.body).toBe(200);
    editors[key] = user;
  }
});
afterAll(() => t.close());

let n = 0;
const role = (token: string, extra: object) =>
  api('POST', '/api/v1/user/roles', token, {
    name: `made ${++n}`,
    permissions: { menu_ids: ['system.users.staff'] },
    field_access: { 'staff.phone': 'hidden', 'staff.email': 'read' },
    ...extra,
  });

describe('a role editor who is not an administrator', () => {
  it('gives no data scope wider than its own', async () => {
    const cases: [keyof typeof editors, object, number][] = [
      ['department', { data_scope: 'all' }, 403],
      ['department', { data_scope: 'department_and_below' }, 403],
      ['department', { data_scope: 'department' }, 201],
      ['department', { data_scope: 'self' }, 201],
      ['department', { data_scope: 'custom', data_scope_department_ids: [ids.east] }, 201],
      ['department', { data_scope: 'custom', data_scope_department_ids: [ids.eastSales] }, 403],
      ['below', { data_scope: 'department_and_below' }, 201],
      ['below', { data_scope: 'custom', data_scope_department_ids: [ids.eastSales, ids.east] }, 201],
      ['below', { data_scope: 'custom', data_scope_department_ids: [ids.west] }, 403],
      ['below', { data_scope: 'all' }, 403],
    ];
    for (const [who, extra, status] of cases) {
      const answer = await role(editors[who].token, extra);
      expect(answer.statusCode, `${who} ${JSON.stringify(extra)}: ${answer.body}`).toBe(status);
      if (status === 403) expect(answer.json().message).toMatch(/wider than your own/);
    }
  });

  it('keeps the fields it may not see or change at least as restricted on the pages the role grants', async () => {
    const token = editors.department.token;
    const cases: [object, number][] = [
      [{ field_access: {} }, 403],
      [{ field_access: { 'staff.phone': 'hidden' } }, 403],
      [{ field_access: { 'staff.phone': 'read', 'staff.email': 'read' } }, 403],
      [{ field_access: { 'staff.phone': 'hidden', 'staff.email': 'hidden' } }, 201],
      // A role that does not grant staff is not limited by the editor's staff fields.
      [{ permissions: { menu_ids: ['system.users.roles'] }, field_access: {} }, 201],
    ];
    for (const [extra, status] of cases) {
      const answer = await role(token, { data_scope: 'department', ...extra });
      expect(answer.statusCode, `${JSON.stringify(extra)}: ${answer.body}`).toBe(status);
    }
    const made = await role(token, { data_scope: 'department' });
    expect(made.statusCode).toBe(201);
    const widened = await api('PATCH', `/api/v1/user/roles/${made.json().data.id}`, token, {
      field_access: {},
    });
    expect(widened.statusCode).toBe(403);
    const count = await t.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM roles WHERE field_access = '{}'::jsonb AND name LIKE 'made %'",
    );
    expect(Number(count.rows[0]!.n)).toBe(1);
  });

  it('leaves an administrator unlimited', async () => {
    expect((await role(admin, { data_scope: 'all', field_access: {} })).statusCode).toBe(201);
  });
});
