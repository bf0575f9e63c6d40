import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * `GET v1/user/access/explain` (issue 30, item 6): can read/update/delete, the sentences that decided and
 * each field's access, for a user, a resource and a record. Its verdicts are checked against what the same
 * user meets when it calls the API itself (read answered or 404, update allowed or 404/403), for every
 * record of two scoped resources, so the explanation cannot drift from the engine.
 */
let t: TestApp;
let admin: string;
let viewer: TestUser;
let clerk: TestUser;
const ids: Record<string, string> = {};

const api = (method: string, url: string, token: string, payload?: unknown, lang = 'en') =>
  t.request({
    method: method as 'GET',
    url,
    token,
    payload: payload as object,
    headers: { 'accept-language': lang },
  });

async function create(url: string, payload: object): Promise<string> {
  const answer = await api('POST', url, admin, payload);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  ids.east = await create('/api/v1/user/departments', { name: 'East' });
  ids.eastSales = await create('/api/v1/user/departments', { name: 'East sales', parent_id: ids.east });
  ids.west = await create('/api/v1/user/departments', { name: 'West' });
  ids.role = await create('/api/v1/user/roles', {
    name: 'East viewer',
    permissions: {
      menu_ids: [
        'system.users',
        'system.users.staff',
        'system.users.staff.update',
        'system.users.departments',
      ],
    },
    data_scope: 'department_and_below',
    field_access: { 'staff.phone': 'hidden', 'staff.email': 'read' },
  });
  viewer = await createUser(t.db, { staff: {} });
  const placed = await api('PATCH', `/api/v1/user/staff/${viewer.staffId}`, admin, {
    department_id: ids.east,
    role_ids: [ids.role],
  });
  expect(placed.statusCode, placed.body).toBe(200);
  clerk = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
  ids.inside = await create('/api/v1/user/staff', {
    name: 'Inside',
    department_id: ids.eastSales,
    phone: '13800000001',
  });
  ids.outside = await create('/api/v1/user/staff', { name: 'Outside', department_id: ids.west });
});
afterAll(() => t.close());

const explain = (query: Record<string, string>, token = admin, lang = 'en') =>
  api('GET', `/api/v1/user/access/explain?${new URLSearchParams(query)}`, token, undefined, lang);

describe('explain', () => {
  it('says why a department-scoped member may read and update a record of its subtree, not delete it', async () => {
    const answer = await explain({ user_id: viewer.userId, resource: 'staff', id: ids.inside! });
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json().data;
    expect(data.can).toEqual({ read: true, update: true, delete: false });
    const text = data.because.join('\n');
    expect(text).toContain('East viewer');
    expect(text).toContain('East');
    expect(text).toMatch(/within/);
    expect(data.fields.phone).toBe('hidden');
    expect(data.fields.email).toBe('read');
    expect(data.fields.name).toBe('write');
  });

  it('says a record outside every scope is answered as not found', async () => {
    const data = (await explain({ user_id: viewer.userId, resource: 'staff', id: ids.outside! })).json().data;
    expect(data.can).toEqual({ read: false, update: false, delete: false });
    expect(data.because.join('\n')).toMatch(/404/);
  });

  it('agrees with what the user meets on every record of staff and departments', async () => {
    for (const resource of ['staff', 'departments'] as const) {
      const url = resource === 'staff' ? '/api/v1/user/staff' : '/api/v1/user/departments';
      const all = (await api('GET', `${url}?size=100`, admin)).json().data.data as { id: string }[];
      expect(all.length).toBeGreaterThan(2);
      for (const { id } of all) {
        const data = (await explain({ user_id: viewer.userId, resource, id })).json().data;
        const read = await api('GET', `${url}/${id}`, viewer.token);
        expect(read.statusCode === 200, `${resource} ${id} read`).toBe(data.can.read);
        if (data.can.read)
          expect(Object.keys(read.json().data)).not.toContain(data.fields.phone === 'hidden' ? 'phone' : '-');
        const update = await api('PATCH', `${url}/${id}`, viewer.token, {});
        expect(update.statusCode === 200, `${resource} ${id} update: ${update.statusCode}`).toBe(
          data.can.update,
        );
      }
    }
  });

  it('explains an administrator, a user without a staff record, and a resource as a whole', async () => {
    const adminId = String(
      (await t.db.query<{ id: string }>("SELECT id FROM users WHERE username = 'admin'")).rows[0]!.id,
    );
    const full = (await explain({ user_id: adminId, resource: 'staff', id: ids.outside! })).json().data;
    expect(full.can).toEqual({ read: true, update: true, delete: true });
    const outsider = await createUser(t.db);
    const none = (await explain({ user_id: outsider.userId, resource: 'staff' })).json().data;
    expect(none.can).toEqual({ read: false, update: false, delete: false });
    expect(Object.values(none.fields).every((v) => v === 'hidden')).toBe(true);
    const whole = (await explain({ user_id: viewer.userId, resource: 'staff' })).json().data;
    expect(whole.can.read).toBe(true);
  });

  it('answers in the request language', async () => {
    const en = (await explain({ user_id: viewer.userId, resource: 'staff', id: ids.inside! })).json().data
      .because;
    const zh = (
      await explain({ user_id: viewer.userId, resource: 'staff', id: ids.inside! }, admin, 'zh-CN')
    ).json().data.because;
    expect(zh).toHaveLength(en.length);
    expect(zh.join('')).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.join('')).not.toEqual(en.join(''));
  });

  it('refuses bad input and callers without system.users.roles, writing nothing', async () => {
    expect((await explain({ user_id: viewer.userId, resource: 'nope' })).statusCode).toBe(422);
    expect((await explain({ user_id: '999999', resource: 'staff' })).statusCode).toBe(404);
    expect((await explain({ user_id: viewer.userId, resource: 'staff', id: '999999' })).statusCode).toBe(404);
    expect((await explain({ user_id: 'abc', resource: 'staff' })).statusCode).toBe(422);
    expect((await explain({ user_id: viewer.userId, resource: 'staff' }, clerk.token)).statusCode).toBe(403);
    expect((await api('GET', '/api/v1/user/access/explain?resource=staff', '')).statusCode).toBe(401);
  });
});
