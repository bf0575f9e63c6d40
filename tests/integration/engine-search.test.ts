import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../resources/staff.ts';
import { issueToken } from '../../server/credentials/tokens.ts';
import { searchStatement } from '../../server/engine/search.ts';
import { UNRESTRICTED } from '../../server/engine/scope.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Global search (issue 32 item 6; contract amendment "Lists that work like a spreadsheet", Global search, and
 * "Who sees which rows and fields": the scope holds on global search), over HTTP against a real database:
 * results across resources ranked exact/prefix first, a department-scoped caller sees only its rows, a
 * hidden field is neither matched nor shown, trashed records are not found, the bounds are 422s, and the
 * statement a resource's search sends is served by its trigram index (EXPLAIN).
 */
const SEARCH = '/api/v1/search';
let t: TestApp;
let admin: string;
const dept = { north: '', south: '' };
const person = { north: '', south: '', exact: '' };
let scoped: string; // department scope in North, may read staff, phone hidden

interface Hit {
  resource: string;
  id: string;
  label: string;
  sublabel: string | null;
}
type Res = Awaited<ReturnType<TestApp['request']>>;
const get = (url: string, token?: string) =>
  t.request({ url, ...(token ? { token } : {}), headers: { 'accept-language': 'en' } });
const hits = (res: Res): Hit[] => {
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Hit[] }).data;
};

async function insert(sql: string, params: unknown[]): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(`${sql} RETURNING id::text AS id`, params);
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  dept.north = await insert('INSERT INTO departments (name, parent_id) VALUES ($1, 0)', ['Zebulon North']);
  dept.south = await insert('INSERT INTO departments (name, parent_id) VALUES ($1, 0)', ['South']);
  const member = (name: string, department: string, phone: string) =>
    insert('INSERT INTO staff (name, department_id, phone) VALUES ($1, $2, $3)', [name, department, phone]);
  person.north = await member('Ada Zebulonsky', dept.north, '13800138001');
  person.south = await member('Zebulon Sud', dept.south, '13800138002');
  person.exact = await member('zebulon', dept.south, '13800138003');
  // Filler rows, so the planner has a table worth an index (EXPLAIN below).
  await t.db.query(
    `INSERT INTO staff (name, department_id) SELECT 'Filler ' || i, $1 FROM generate_series(1, 20000) AS i`,
    [dept.south],
  );
  await t.db.query('VACUUM ANALYZE staff');
  const userId = await insert('INSERT INTO users (username, name) VALUES ($1, $1)', ['scoped_searcher']);
  const staffId = await insert('INSERT INTO staff (user_id, name, department_id) VALUES ($1, $2, $3)', [
    userId,
    'Scoped Searcher',
    dept.north,
  ]);
  const roleId = await insert(
    'INSERT INTO roles (name, permissions, data_scope, field_access) VALUES ($1, $2, $3, $4)',
    [
      'search scope',
      JSON.stringify({ menu_ids: ['system.users.staff'] }),
      'department',
      JSON.stringify({ 'staff.phone': 'hidden' }),
    ],
  );
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [staffId, roleId]);
  scoped = (await issueToken(t.db, { userId, remember: false })).accessToken;
});
afterAll(() => t?.close());

describe('GET v1/search', () => {
  it('finds records across resources, the exact and prefix matches first', async () => {
    const found = hits(await get(`${SEARCH}?q=zebulon`, admin));
    const keys = found.map((h) => `${h.resource}:${h.label}`);
    expect(keys.slice(0, 3)).toEqual(['staff:zebulon', 'staff:Zebulon Sud', 'departments:Zebulon North']);
    expect(keys).toContain('staff:Ada Zebulonsky');
    expect(found.find((h) => h.id === person.north)).toMatchObject({ resource: 'staff' });
  });

  it('answers at most `limit` records', async () => {
    expect(hits(await get(`${SEARCH}?q=zebulon&limit=2`, admin))).toHaveLength(2);
    expect(hits(await get(`${SEARCH}?q=filler&limit=50`, admin))).toHaveLength(50);
  });

  it('a department-scoped caller finds only its rows, and only in what it may read', async () => {
    const found = hits(await get(`${SEARCH}?q=zebulon`, scoped));
    expect(found.map((h) => h.id)).toEqual([person.north]);
    // It may not read departments: the department named Zebulon North is not among them.
    expect(found.every((h) => h.resource === 'staff')).toBe(true);
  });

  it("an API token finds only what its permissions read, even the administrator's", async () => {
    // Review of issue 32 (R1): a personal token narrowed to the departments page searches departments only.
    const made = await t.request({
      method: 'POST',
      url: '/api/v1/user/tokens',
      token: admin,
      payload: {
        name: 'departments only',
        permissions: ['system.users.departments'],
        expires_at: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const narrow = made.json().data.token as string;
    const found = hits(await get(`${SEARCH}?q=zebulon`, narrow));
    expect(found.map((h) => [h.resource, h.id])).toEqual([['departments', dept.north]]);
    // The same search by the administrator's session finds the staff members too.
    expect(hits(await get(`${SEARCH}?q=zebulon`, admin)).some((h) => h.resource === 'staff')).toBe(true);
  });

  it('a hidden field is neither matched nor shown', async () => {
    const byAdmin = hits(await get(`${SEARCH}?q=13800138001`, admin));
    expect(byAdmin.map((h) => h.id)).toEqual([person.north]);
    expect(byAdmin[0]!.sublabel).toBe('13800138001');
    expect(hits(await get(`${SEARCH}?q=13800138001`, scoped))).toEqual([]);
    const byName = hits(await get(`${SEARCH}?q=Ada Zeb`, scoped));
    expect(byName.map((h) => h.id)).toEqual([person.north]);
    expect(JSON.stringify(byName)).not.toContain('13800138001');
  });

  it('a trashed record is not found', async () => {
    const id = await insert('INSERT INTO staff (name, department_id) VALUES ($1, $2)', [
      'Trashable Quillon',
      dept.south,
    ]);
    expect(hits(await get(`${SEARCH}?q=quillon`, admin)).map((h) => h.id)).toEqual([id]);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/user/staff/${id}`, token: admin });
    expect(del.statusCode, del.body).toBe(200);
    expect(hits(await get(`${SEARCH}?q=quillon`, admin))).toEqual([]);
  });

  it('bounds q and limit (422), and needs a signed-in caller (401)', async () => {
    for (const query of [
      '',
      'q=',
      'q=%20%20',
      `q=${'a'.repeat(101)}`,
      'q=ab&limit=0',
      'q=ab&limit=51',
      'q=ab&limit=x',
    ]) {
      const res = await get(`${SEARCH}?${query}`, admin);
      expect(res.statusCode, query).toBe(422);
      expect(res.body).not.toMatch(/SELECT|at .*\.ts/);
    }
    expect((await get(`${SEARCH}?q=${'a'.repeat(100)}`, admin)).statusCode).toBe(200);
    expect((await get(`${SEARCH}?q=ab`)).statusCode).toBe(401);
  });

  it("a resource's search is served by its trigram index (EXPLAIN)", async () => {
    const { sql, params } = searchStatement({
      resource: staff,
      hooks: {},
      hidden: new Set(),
      scope: UNRESTRICTED,
      text: 'zebulon',
      limit: 10,
    });
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('staff_name_trgm');
  });
});
