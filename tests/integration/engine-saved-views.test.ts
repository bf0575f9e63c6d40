import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../server/credentials/tokens.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Saved views (issue 32, item 1; contract amendment "Lists that work like a spreadsheet"), on PGlite and,
 * under `npm run test:pg`, PostgreSQL: who sees a view (own, shared with a role, with everyone, never of a
 * list the caller cannot read), who may change it (owner or administrator; 403 for another viewer, 404 for
 * the rest), each caller's own pin and default, the pinned views' counts through the list operation within
 * the caller's data scope, a stored query that no longer validates for a caller (an error value, not a 5xx),
 * and the audit rows.
 *
 * Departments East and West; staff: two in East, three in West.
 */
const VIEWS = '/api/v1/user/views';
const STAFF_READ = ['system.users.staff'];

let t: TestApp;
let admin: string;
let adminId: string;
interface Caller {
  token: string;
  userId: string;
  roleId: string;
}
let clerk: Caller; // role "clerks": staff, scope department (East)
let other: Caller; // role "others": staff, scope all
let blind: Caller; // role "blind": staff with phone hidden, scope all
let stranger: Caller; // a role without the staff page

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  t.request({ method, url, token, headers: { 'accept-language': 'en' }, ...(payload ? { payload } : {}) });

async function insert(sql: string, params: unknown[]): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(`${sql} RETURNING id::text AS id`, params);
  return rows[0]!.id;
}

async function caller(
  name: string,
  department: string | null,
  role: { scope: string; permissions: string[]; fieldAccess?: Record<string, string> },
): Promise<Caller> {
  const userId = await insert('INSERT INTO users (username, name) VALUES ($1, $1)', [name]);
  const staffId = await insert('INSERT INTO staff (user_id, name, department_id) VALUES ($1, $2, $3)', [
    userId,
    name,
    department,
  ]);
  const roleId = await insert(
    'INSERT INTO roles (name, permissions, data_scope, field_access) VALUES ($1, $2, $3, $4)',
    [
      `role ${name}`,
      JSON.stringify({ menu_ids: role.permissions }),
      role.scope,
      JSON.stringify(role.fieldAccess ?? {}),
    ],
  );
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [staffId, roleId]);
  const { accessToken } = await issueToken(t.db, { userId, remember: false });
  return { token: accessToken, userId, roleId };
}

async function create(token: string, body: object) {
  const res = await call('POST', VIEWS, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; pinned: boolean; can_edit: boolean };
}
const namesSeenBy = async (token: string, query = '') => {
  const res = await call('GET', `${VIEWS}${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { name: string }[]).map((v) => v.name).sort();
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT id::text AS id FROM users WHERE username = 'admin'`,
  );
  adminId = rows[0]!.id;
  const east = await insert('INSERT INTO departments (name, parent_id) VALUES ($1, 0)', ['East']);
  const west = await insert('INSERT INTO departments (name, parent_id) VALUES ($1, 0)', ['West']);
  for (const [name, dept] of [
    ['East one', east],
    ['West one', west],
    ['West two', west],
    ['West three', west],
  ] as const)
    await insert('INSERT INTO staff (name, department_id, phone) VALUES ($1, $2, $3)', [
      name,
      dept,
      '13800000000',
    ]);
  clerk = await caller('clerk', east, { scope: 'department', permissions: STAFF_READ });
  other = await caller('other', west, { scope: 'all', permissions: STAFF_READ });
  blind = await caller('blind', west, {
    scope: 'all',
    permissions: STAFF_READ,
    fieldAccess: { 'staff.phone': 'hidden' },
  });
  stranger = await caller('stranger', west, { scope: 'all', permissions: ['system.users.departments'] });
});

afterAll(async () => {
  await t?.close();
});

describe('saved views: sharing', () => {
  it('lists the own views and those shared with the caller, never a list the caller cannot read', async () => {
    await create(admin, { resource: 'staff', name: 'admin private', query: { q: 'one' } });
    await create(admin, { resource: 'staff', name: 'for clerks', shared: 'roles', role_ids: [clerk.roleId] });
    await create(admin, { resource: 'staff', name: 'for everyone', shared: 'everyone', columns: ['name'] });
    await create(admin, { resource: 'roles', name: 'roles for everyone', shared: 'everyone' });
    await create(clerk.token, { resource: 'staff', name: 'clerk own', density: 'comfortable' });

    expect(await namesSeenBy(clerk.token)).toEqual(['clerk own', 'for clerks', 'for everyone']);
    expect(await namesSeenBy(other.token)).toEqual(['for everyone']);
    // The roles list is not the stranger's, nor is staff: it sees no view at all.
    expect(await namesSeenBy(stranger.token)).toEqual([]);
    expect(await namesSeenBy(admin, '?resource=roles')).toEqual(['roles for everyone']);
    expect(await namesSeenBy(admin, '?resource=staff')).toEqual([
      'admin private',
      'for clerks',
      'for everyone',
    ]);
  });

  it('refuses a view of a list the caller cannot read, a query the list refuses and roles left out', async () => {
    const refused = async (token: string, body: object, field: string) => {
      const res = await call('POST', VIEWS, token, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors as object)).toContain(field);
    };
    await refused(stranger.token, { resource: 'staff', name: 'x' }, 'resource');
    await refused(admin, { resource: 'nothing', name: 'x' }, 'resource');
    await refused(
      admin,
      { resource: 'staff', name: 'x', query: { search: 'nope:1', searchFields: 'nope:=' } },
      'nope',
    );
    await refused(admin, { resource: 'staff', name: 'x', query: { orderBy: 'phone' } }, 'phone');
    await refused(admin, { resource: 'staff', name: 'x', columns: ['nope'] }, 'columns');
    await refused(admin, { resource: 'staff', name: 'x', shared: 'roles' }, 'role_ids');
    // A field hidden from the caller is, to its views, a field that does not exist.
    await refused(
      blind.token,
      { resource: 'staff', name: 'x', query: { search: 'phone:138', searchFields: 'phone:like' } },
      'phone',
    );
    expect((await call('POST', VIEWS, admin, { resource: 'staff' })).statusCode).toBe(422);
  });
});

describe('saved views: changes', () => {
  it('lets only the owner or an administrator change or delete a view; anyone who sees it pins it', async () => {
    const shared = await create(admin, {
      resource: 'staff',
      name: 'shared edits',
      shared: 'roles',
      role_ids: [clerk.roleId],
    });
    expect(shared.can_edit).toBe(true);
    const seen = (await call('GET', VIEWS, clerk.token)).json().data as { id: string; can_edit: boolean }[];
    expect(seen.find((v) => v.id === shared.id)?.can_edit).toBe(false);

    expect((await call('PATCH', `${VIEWS}/${shared.id}`, clerk.token, { name: 'mine now' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `${VIEWS}/${shared.id}`, clerk.token)).statusCode).toBe(403);
    // Not shared with "others": to them it does not exist.
    expect((await call('PATCH', `${VIEWS}/${shared.id}`, other.token, { pinned: true })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${VIEWS}/${shared.id}`, other.token)).statusCode).toBe(404);

    const pinned = await call('PATCH', `${VIEWS}/${shared.id}`, clerk.token, {
      pinned: true,
      is_default: true,
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json().data).toMatchObject({ pinned: true, is_default: true, name: 'shared edits' });
    // The clerk's pin is the clerk's: the owner's own choice is unchanged.
    const own = (await call('GET', `${VIEWS}?resource=staff`, admin)).json().data as {
      id: string;
      pinned: boolean;
    }[];
    expect(own.find((v) => v.id === shared.id)?.pinned).toBe(false);

    // A second default of the same list replaces the first.
    const second = await create(clerk.token, { resource: 'staff', name: 'clerk default', is_default: true });
    const defaults = (
      (await call('GET', `${VIEWS}?resource=staff`, clerk.token)).json().data as {
        id: string;
        is_default: boolean;
      }[]
    )
      .filter((v) => v.is_default)
      .map((v) => v.id);
    expect(defaults).toEqual([second.id]);

    // The clerk's own view: the administrator may change it, though nobody shared it with the administrator.
    const renamed = await call('PATCH', `${VIEWS}/${second.id}`, admin, {
      name: 'renamed by admin',
      shared: 'everyone',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({
      name: 'renamed by admin',
      shared: 'everyone',
      owner_id: clerk.userId,
    });

    expect((await call('DELETE', `${VIEWS}/${shared.id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', VIEWS, clerk.token)).json().data).not.toContainEqual(
      expect.objectContaining({ id: shared.id }),
    );
    const { rows } = await t.db.query<{ action: string; operator_id: string }>(
      `SELECT action, operator_id::text AS operator_id FROM activity_logs
        WHERE subject_type = 'saved_views' AND subject_id = $1 ORDER BY id`,
      [shared.id],
    );
    expect(rows).toEqual([
      { action: 'views.create', operator_id: adminId },
      { action: 'views.delete', operator_id: adminId },
    ]);
  });
});

describe('saved views: counts', () => {
  it("counts each pinned view through the list, within the caller's scope", async () => {
    const all = await create(admin, {
      resource: 'staff',
      name: 'all staff',
      shared: 'everyone',
      pinned: true,
    });
    const west = await create(admin, {
      resource: 'staff',
      name: 'west ones',
      shared: 'everyone',
      pinned: true,
      query: { search: 'name:West', searchFields: 'name:like' },
    });
    const unpinned = await create(admin, { resource: 'staff', name: 'not pinned', shared: 'everyone' });
    for (const id of [all.id, west.id])
      expect((await call('PATCH', `${VIEWS}/${id}`, clerk.token, { pinned: true })).statusCode).toBe(200);

    const total = async (token: string, query = '') =>
      (await call('GET', `/api/v1/user/staff?size=1${query}`, token)).json().data.meta.pagination
        .total as number;
    const countsOf = async (token: string) => {
      const res = await call('GET', `${VIEWS}/counts`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Record<string, unknown>;
    };
    const adminCounts = await countsOf(admin);
    expect(adminCounts[all.id]).toBe(await total(admin));
    expect(adminCounts[west.id]).toBe(3);
    expect(adminCounts).not.toHaveProperty(unpinned.id);

    // The clerk sees its department only: East one and itself; no West staff.
    const clerkCounts = await countsOf(clerk.token);
    expect(clerkCounts[all.id]).toBe(2);
    expect(clerkCounts[all.id]).toBe(await total(clerk.token));
    expect(clerkCounts[west.id]).toBe(0);

    // A record created elsewhere is counted on the next call.
    await insert(
      'INSERT INTO staff (name, department_id) SELECT $1, department_id FROM staff WHERE name = $2',
      ['West four', 'West one'],
    );
    expect((await countsOf(admin))[west.id]).toBe(4);
  });

  it('answers an error value for a stored query that no longer validates for the caller', async () => {
    const byPhone = await create(admin, {
      resource: 'staff',
      name: 'by phone',
      shared: 'everyone',
      pinned: true,
      query: { search: 'phone:138', searchFields: 'phone:like' },
    });
    // The blind role cannot see the phone: to it the query names an unknown field.
    expect((await call('PATCH', `${VIEWS}/${byPhone.id}`, blind.token, { pinned: true })).statusCode).toBe(
      200,
    );
    const blindCounts = (await call('GET', `${VIEWS}/counts`, blind.token)).json().data as Record<
      string,
      unknown
    >;
    expect(blindCounts[byPhone.id]).toMatchObject({ error: 'invalid_query', message: expect.any(String) });

    // A field the resource no longer has (a stored query from before a schema change).
    await t.db.query(`UPDATE saved_views SET query = $1::jsonb WHERE id = $2`, [
      JSON.stringify({ search: 'gone:1', searchFields: 'gone:=' }),
      byPhone.id,
    ]);
    const res = await call('GET', `${VIEWS}/counts`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data as Record<string, unknown>)[byPhone.id]).toMatchObject({
      error: 'invalid_query',
    });
    expect(res.body).not.toMatch(/SELECT|stack/i);
  });

  it("never shows another caller's filter on a field hidden from the reader", async () => {
    // Review of issue 32 (R1): a view shared by its owner keeps its query; a reader that may not see a field
    // the query filters or sorts by must not read the typed value back from the view (its search part is left out), nor the column.
    const secret = await create(admin, {
      resource: 'staff',
      name: 'secret phone filter',
      shared: 'everyone',
      query: {
        search: 'phone:13812345678;name:West',
        searchFields: 'phone:like;name:like',
        searchJoin: 'and',
        orderBy: 'name',
        sortedBy: 'desc',
        q: 'West',
      },
      columns: ['name', 'phone'],
    });
    const seen = async (token: string) => {
      const res = await call('GET', `${VIEWS}?resource=staff`, token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { id: string; query: object; columns: string[] }[]).find(
        (v) => v.id === secret.id,
      )!;
    };
    const blindView = await seen(blind.token);
    expect(blindView).toBeDefined();
    expect(JSON.stringify(blindView)).not.toContain('13812345678');
    // Only the phone's pairs go (issue 37 review): the name's search and sort stay.
    expect(blindView.query).toEqual({
      search: 'name:West',
      searchFields: 'name:like',
      searchJoin: 'and',
      orderBy: 'name',
      sortedBy: 'desc',
      q: 'West',
    });
    expect(blindView.columns).toEqual(['name']);
    // The owner, and a reader who sees the phone, get the view as saved.
    for (const token of [admin, other.token])
      expect(await seen(token)).toMatchObject({
        query: { search: 'phone:13812345678;name:West', searchFields: 'phone:like;name:like' },
        columns: ['name', 'phone'],
      });
    // Pinned, the blind reader's count is still the error value, never a count over the hidden field.
    const pin = await call('PATCH', `${VIEWS}/${secret.id}`, blind.token, { pinned: true });
    expect(pin.statusCode, pin.body).toBe(200);
    expect(pin.body).not.toContain('13812345678');
    const counts = (await call('GET', `${VIEWS}/counts`, blind.token)).json().data as Record<string, unknown>;
    expect(counts[secret.id]).toMatchObject({ error: 'invalid_query' });
  });

  it('saves, counts and redacts a query on a related field (`department.name`)', async () => {
    // Review of issue 32 (R1): a list sorted or filtered by a related field (item 5) can be saved as a view
    // (item 1), counted, and its filter is left out for a reader who may not see the target's field.
    const related = await create(admin, {
      resource: 'staff',
      name: 'East by department',
      shared: 'everyone',
      pinned: true,
      query: {
        search: 'department.name:East',
        searchFields: 'department.name:like',
        orderBy: 'department.name',
        sortedBy: 'asc',
      },
    });
    const counts = (await call('GET', `${VIEWS}/counts`, admin)).json().data as Record<string, unknown>;
    // East holds "East one" and the clerk.
    expect(counts[related.id]).toBe(2);
    const nameBlind = await caller('name blind', null, {
      scope: 'all',
      permissions: [...STAFF_READ, 'system.users.departments'],
      fieldAccess: { 'departments.name': 'hidden' },
    });
    const res = await call('GET', `${VIEWS}?resource=staff`, nameBlind.token);
    expect(res.statusCode, res.body).toBe(200);
    const view = (res.json().data as { id: string; query: object }[]).find((v) => v.id === related.id)!;
    expect(view.query).toEqual({});
  });

  it('answers 401 signed out', async () => {
    expect((await t.request({ method: 'GET', url: `${VIEWS}/counts` })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: VIEWS })).statusCode).toBe(401);
  });
});
