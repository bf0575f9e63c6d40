import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../server/credentials/tokens.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { createGadgetLabels, FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { openSse, type SseEvent, type SseStream } from '../helpers/sse.ts';
import { multipartFile } from '../helpers/upload.ts';

/**
 * Data scopes (issue 30, contract amendment "Who sees which rows and fields"), each path proved once with a
 * department-scoped caller (`department_and_below` and `department`) and a `self` caller: list (pages,
 * cursors, totals, `id:in`), read, update, delete, bulk calls, export, import (`upsert=id`), includes,
 * reference options, and the record columns `created_by` / `updated_by`. Out of scope is a 404; a write that
 * would leave the caller's scope is a 422 naming the field.
 *
 * Departments: East > East Sales > East Sales A, and West. Staff: one in each, one without a department.
 */
const STAFF = '/api/v1/user/staff';
const DEPARTMENTS = '/api/v1/user/departments';
const GADGETS = '/api/v1/test/gadgets';
const STAFF_ALL = [
  'system.users.staff',
  'system.users.staff.create',
  'system.users.staff.update',
  'system.users.staff.delete',
  'system.users.staff.export',
  'system.users.staff.import',
  'system.users.departments',
];
const GADGETS_ALL = ['test.gadgets', 'test.gadgets.create', 'test.gadgets.update', 'test.gadgets.delete'];

let t: TestApp;
let admin: string;
const dept: Record<'east' | 'sales' | 'salesA' | 'west', string> = {
  east: '',
  sales: '',
  salesA: '',
  west: '',
};
const member: Record<'east' | 'sales' | 'salesA' | 'west' | 'none', string> = {
  east: '',
  sales: '',
  salesA: '',
  west: '',
  none: '',
};
interface Caller {
  token: string;
  userId: string;
  staffId: string;
}
let lead: Caller; // department_and_below, in East
let desk: Caller; // department, in East Sales
let selfer: Caller; // self, in West

type Res = Awaited<ReturnType<TestApp['request']>>;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.request({ method, url, token, headers: { 'accept-language': 'en' }, ...(payload ? { payload } : {}) });
const ids = (res: Res) => (res.json().data as { data: { id: string }[] }).data.map((r) => r.id).sort();
const sorted = (...list: string[]) => [...list].sort();

async function insert(sql: string, params: unknown[]): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(`${sql} RETURNING id::text AS id`, params);
  return rows[0]!.id;
}

/** A staff member in `department` holding one role with this data scope and these permissions. */
async function caller(
  name: string,
  department: string | null,
  scope: string,
  permissions: string[],
): Promise<Caller> {
  const userId = await insert('INSERT INTO users (username, name) VALUES ($1, $1)', [name]);
  const staffId = await insert('INSERT INTO staff (user_id, name, department_id) VALUES ($1, $2, $3)', [
    userId,
    name,
    department,
  ]);
  const roleId = await insert('INSERT INTO roles (name, permissions, data_scope) VALUES ($1, $2, $3)', [
    `role ${name}`,
    JSON.stringify({ menu_ids: permissions }),
    scope,
  ]);
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [staffId, roleId]);
  const { accessToken } = await issueToken(t.db, { userId, remember: false });
  return { token: accessToken, userId, staffId };
}

beforeAll(async () => {
  // The product's resources (staff, departments) and the gadgets fixture (scoped by owner only).
  createGadgetLabels();
  const fixtures = createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS });
  t = await createTestApp({}, { extraModules: [{ ...fixtures, name: 'fixture-resources' }] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  admin = await t.adminToken();
  const department = (name: string, parent: string) =>
    insert('INSERT INTO departments (name, parent_id) VALUES ($1, $2)', [name, parent]);
  dept.east = await department('East', '0');
  dept.sales = await department('East Sales', dept.east);
  dept.salesA = await department('East Sales A', dept.sales);
  dept.west = await department('West', '0');
  const person = (name: string, department: string | null) =>
    insert('INSERT INTO staff (name, department_id) VALUES ($1, $2)', [name, department]);
  member.east = await person('Member East', dept.east);
  member.sales = await person('Member Sales', dept.sales);
  member.salesA = await person('Member Sales A', dept.salesA);
  member.west = await person('Member West', dept.west);
  member.none = await person('Member None', null);
  lead = await caller('lead', dept.east, 'department_and_below', [...STAFF_ALL, ...GADGETS_ALL]);
  desk = await caller('desk', dept.sales, 'department', STAFF_ALL);
  selfer = await caller('selfer', dept.west, 'self', [...STAFF_ALL, ...GADGETS_ALL]);
});

const streams: SseStream[] = [];
afterAll(async () => {
  for (const s of streams) s.close();
  await t?.close();
});

describe('lists', () => {
  it('a department_and_below caller lists its department and the departments under it', async () => {
    const res = await call('GET', `${STAFF}?size=100`, lead.token);
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual(sorted(member.east, member.sales, member.salesA, lead.staffId, desk.staffId));
    expect(res.json().data.meta.pagination.total).toBe(5);
  });

  it('a department caller lists its own department only', async () => {
    const res = await call('GET', `${STAFF}?size=100`, desk.token);
    expect(ids(res)).toEqual(sorted(member.sales, desk.staffId));
  });

  it('a self caller lists its own staff record and what it created', async () => {
    expect(ids(await call('GET', STAFF, selfer.token))).toEqual([selfer.staffId]);
    const made = await call('POST', STAFF, selfer.token, {
      name: 'Made by selfer',
      department_id: dept.east,
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().data.created_by).toBe(selfer.userId);
    expect(ids(await call('GET', STAFF, selfer.token))).toEqual(sorted(selfer.staffId, made.json().data.id));
    await call('DELETE', `${STAFF}/${made.json().data.id}`, admin);
  });

  it('pages by number and by cursor hold the same rows, and a filter stays inside the scope', async () => {
    const all = ids(await call('GET', `${STAFF}?size=100`, lead.token));
    const byPage: string[] = [];
    for (let page = 1; page <= 3; page++)
      byPage.push(...ids(await call('GET', `${STAFF}?size=2&page=${page}`, lead.token)));
    expect(byPage.sort()).toEqual(all);
    const byCursor: string[] = [];
    let url = `${STAFF}?size=2`;
    for (let i = 0; i < 5; i++) {
      const res = await call('GET', url, lead.token);
      byCursor.push(...ids(res));
      const next = res.json().data.meta.pagination.next_cursor as string | null;
      if (!next) break;
      url = `${STAFF}?size=2&cursor=${encodeURIComponent(next)}`;
    }
    expect(byCursor.sort()).toEqual(all);
    const named = await call('GET', `${STAFF}?q=Member`, lead.token);
    expect(ids(named)).toEqual(sorted(member.east, member.sales, member.salesA));
    // A cursor of the administrator's list is not one of this caller's query.
    const adminPage = await call('GET', `${STAFF}?size=2`, admin);
    const theirs = adminPage.json().data.meta.pagination.next_cursor as string;
    expect(
      (await call('GET', `${STAFF}?size=2&cursor=${encodeURIComponent(theirs)}`, lead.token)).statusCode,
    ).toBe(422);
  });

  it('an id:in list (getMany) answers only the records in scope', async () => {
    const wanted = [member.east, member.west, member.none].join(',');
    const res = await call('GET', `${STAFF}?search=id:${wanted}&searchFields=id:in`, lead.token);
    expect(ids(res)).toEqual([member.east]);
  });

  it('reference options: departments are scoped by their own id and subtree', async () => {
    expect(ids(await call('GET', `${DEPARTMENTS}?size=100`, lead.token))).toEqual(
      sorted(dept.east, dept.sales, dept.salesA),
    );
    expect(ids(await call('GET', `${DEPARTMENTS}?size=100`, desk.token))).toEqual([dept.sales]);
  });
});

describe('one record', () => {
  it('reads in scope; out of scope is a 404, never a 403', async () => {
    expect((await call('GET', `${STAFF}/${member.salesA}`, lead.token)).statusCode).toBe(200);
    const out = await call('GET', `${STAFF}/${member.west}`, lead.token);
    expect(out.statusCode).toBe(404);
    expect((await call('GET', `${STAFF}/${member.east}`, desk.token)).statusCode).toBe(404);
    expect((await call('PATCH', `${STAFF}/${member.west}`, lead.token, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `${STAFF}/${member.west}`, lead.token)).statusCode).toBe(404);
    const { rows } = await t.db.query('SELECT name FROM staff WHERE id = $1', [member.west]);
    expect(rows[0]).toEqual({ name: 'Member West' });
  });

  it('a create or update that would leave the scope is a 422 naming the department', async () => {
    const create = await call('POST', STAFF, lead.token, { name: 'Far', department_id: dept.west });
    expect(create.statusCode).toBe(422);
    expect(Object.keys(create.json().errors)).toEqual(['department_id']);
    const none = await call('POST', STAFF, desk.token, { name: 'Nowhere' });
    expect(none.statusCode).toBe(422);
    const move = await call('PATCH', `${STAFF}/${member.sales}`, lead.token, { department_id: dept.west });
    expect(move.statusCode).toBe(422);
    expect(move.json().errors.department_id).toBeTruthy();
    const inside = await call('PATCH', `${STAFF}/${member.sales}`, lead.token, {
      department_id: dept.salesA,
    });
    expect(inside.statusCode).toBe(200);
    expect(inside.json().data.updated_by).toBe(lead.userId);
    await call('PATCH', `${STAFF}/${member.sales}`, admin, { department_id: dept.sales });
  });

  it('created_by and updated_by are set by the engine and never taken from a body', async () => {
    const made = await call('POST', GADGETS, selfer.token, {
      name: 'Mine',
      sku: 'SCOPE-1',
      price: 1,
      created_by: admin,
      updated_by: '1',
    });
    expect(made.statusCode).toBe(201);
    const record = made.json().data;
    expect([record.created_by, record.updated_by]).toEqual([selfer.userId, selfer.userId]);
    const changed = await call('PATCH', `${GADGETS}/${record.id}`, lead.token, {
      name: 'x',
      created_by: '1',
    });
    // lead's department scope sees no gadget (gadgets have no department column): a 404.
    expect(changed.statusCode).toBe(404);
    const adminId = (
      await t.db.query<{ id: string }>(`SELECT id::text AS id FROM users WHERE username = 'admin'`)
    ).rows[0]!.id;
    const byAdmin = await call('PATCH', `${GADGETS}/${record.id}`, admin, {
      name: 'Mine too',
      created_by: '1',
    });
    expect([byAdmin.json().data.created_by, byAdmin.json().data.updated_by]).toEqual([
      selfer.userId,
      adminId,
    ]);
  });

  it('an owner-scoped resource: a self caller sees what it created, a department caller none', async () => {
    const theirs = await call('POST', GADGETS, admin, { name: 'Admin gadget', sku: 'SCOPE-2', price: 1 });
    const mine = await call('POST', GADGETS, selfer.token, {
      name: 'Selfer gadget',
      sku: 'SCOPE-3',
      price: 1,
    });
    const listed = ids(await call('GET', `${GADGETS}?size=100`, selfer.token));
    expect(listed).toContain(mine.json().data.id);
    expect(listed).not.toContain(theirs.json().data.id);
    expect(ids(await call('GET', GADGETS, lead.token))).toEqual([]);
    expect((await call('GET', `${GADGETS}/${theirs.json().data.id}`, selfer.token)).statusCode).toBe(404);
  });
});

describe('includes', () => {
  it('leaves out embedded records outside the caller scope', async () => {
    const own = await call('GET', `${STAFF}/${selfer.staffId}?include=department`, selfer.token);
    expect(own.statusCode).toBe(200);
    // selfer's scope on departments is `self`: West was not created by them.
    expect(own.json().data.department_id).toBe(dept.west);
    expect(own.json().data.department).toBeNull();
    const listed = await call('GET', `${STAFF}?include=department&size=100`, lead.token);
    const departments = (listed.json().data.data as { department: { id: string } | null }[]).map(
      (r) => r.department?.id,
    );
    expect(departments).toContain(dept.salesA);
  });
});

describe('bulk calls', () => {
  it('an id out of scope is reported missing (404) and nothing is written', async () => {
    const res = await call('PATCH', `${STAFF}?ids=${member.east},${member.west}`, lead.token, {
      state: false,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors.ids).toEqual([member.west]);
    const { rows } = await t.db.query<{ state: boolean }>('SELECT state FROM staff WHERE id = $1', [
      member.east,
    ]);
    expect(rows[0]!.state).toBe(true);
    const del = await call('DELETE', `${STAFF}?ids=${member.west}`, desk.token);
    expect(del.statusCode).toBe(404);
    const ok = await call('PATCH', `${STAFF}?ids=${member.east},${member.sales}`, lead.token, {
      state: true,
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('CSV', () => {
  it('an export holds the rows of the caller scope', async () => {
    const res = await call('GET', `${STAFF}/export?fields=id,name`, desk.token);
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
      .slice(1);
    expect(lines.map((l) => l.split(',')[0]).sort()).toEqual(sorted(member.sales, desk.staffId));
  });

  it('an import with upsert=id of a row out of scope is a 422 naming the row; nothing is written', async () => {
    const csv = `id,name\n${member.sales},Renamed Sales\n${member.west},Renamed West\n`;
    const res = await t.request({
      method: 'POST',
      url: `${STAFF}/import?upsert=id`,
      token: lead.token,
      ...multipartFile('staff.csv', Buffer.from(csv), 'text/csv'),
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['rows.3.id']);
    const { rows } = await t.db.query<{ name: string }>(
      'SELECT name FROM staff WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[member.sales, member.west]],
    );
    expect(rows.map((r) => r.name)).toEqual(['Member Sales', 'Member West']);
  });
});

describe('import references', () => {
  it('names and ids of departments outside the scope or in the trash read as unknown, and never make a name ambiguous', async () => {
    // A namesake of an in-scope department, outside the lead's subtree, and a trashed one inside it.
    const twin = await insert('INSERT INTO departments (name, parent_id) VALUES ($1, $2)', [
      'East Sales A',
      dept.west,
    ]);
    await insert('INSERT INTO departments (name, parent_id, deleted_at) VALUES ($1, $2, now())', [
      'Gone East',
      dept.east,
    ]);
    const csv = [
      'name,department_id',
      'Import West,West',
      'Import Nowhere,Nowhere',
      `Import West id,${dept.west}`,
      'Import Gone,Gone East',
      'Import Sales A,East Sales A',
      'Import Sales,East Sales',
    ].join('\n');
    const file = multipartFile('staff.csv', Buffer.from(csv), 'text/csv');
    const res = await t.request({
      method: 'POST',
      url: `${STAFF}/import?dry_run=1`,
      token: lead.token,
      ...file,
      headers: { ...file.headers, 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const unknown = (value: string) => ({ department_id: [`No Department record is named "${value}"`] });
    expect(res.json().data.errors).toEqual([
      { row: 2, errors: unknown('West') },
      { row: 3, errors: unknown('Nowhere') },
      { row: 4, errors: unknown(dept.west) },
      { row: 5, errors: unknown('Gone East') },
    ]);
    // The administrator sees both namesakes: for it the name is ambiguous, and the trashed one stays unknown.
    const asAdmin = await t.request({
      method: 'POST',
      url: `${STAFF}/import?dry_run=1`,
      token: admin,
      ...file,
      headers: { ...file.headers, 'accept-language': 'en' },
    });
    const errors = asAdmin.json().data.errors as { row: number; errors: Record<string, string[]> }[];
    expect(errors.map((e) => e.row)).toEqual([3, 5, 6]);
    expect(errors[2]!.errors.department_id![0]).toMatch(/More than one/);
    await t.db.query('DELETE FROM departments WHERE id = $1', [twin]);
  });
});

describe('dashboard', () => {
  it('counts the staff of the caller scope', async () => {
    const res = await call('GET', '/api/v1/system/dashboard', desk.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.counts.staff).toBe(2);
    const all = await call('GET', '/api/v1/system/dashboard', admin);
    expect(all.json().data.counts.staff).toBeGreaterThan(2);
  });
});

describe('live events', () => {
  const about = (id: string) => (e: SseEvent) => {
    const data = e.data as { id?: string | null; ids?: string[] | null };
    return e.event === 'record' && (data.id === id || data.ids?.includes(id) === true);
  };

  it('a subscriber hears only of the records in its scope (one event or many)', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const leadStream = await openSse(base, lead.token);
    const selfStream = await openSse(base, selfer.token);
    streams.push(leadStream, selfStream);
    await Promise.all([leadStream.connected(), selfStream.connected()]);

    // Events reach a stream in the order they were published: once the later in-scope one has come, the
    // earlier out-of-scope one would have come before it.
    const far = await call('POST', STAFF, admin, { name: 'Far away', department_id: dept.west });
    const near = await call('POST', STAFF, admin, { name: 'Nearby', department_id: dept.salesA });
    const [farId, nearId] = [far.json().data.id as string, near.json().data.id as string];
    await leadStream.waitFor(about(nearId));
    expect(leadStream.events.some(about(farId))).toBe(false);

    // A bulk call's event lists only the ids the subscriber may see.
    const bulk = await call('PATCH', `${STAFF}?ids=${member.east},${selfer.staffId}`, admin, { state: true });
    expect(bulk.statusCode).toBe(200);
    const mine = await selfStream.waitFor(about(selfer.staffId));
    expect((mine.data as { ids: string[] }).ids).toEqual([selfer.staffId]);
    const theirs = await leadStream.waitFor(about(member.east));
    expect((theirs.data as { ids: string[] }).ids).toEqual([member.east]);

    // A delete is decided by the record as it was.
    await call('DELETE', `${STAFF}/${farId}`, admin);
    await call('DELETE', `${STAFF}/${nearId}`, admin);
    const gone = await leadStream.waitFor(
      (e) => about(nearId)(e) && (e.data as { action: string }).action === 'delete',
    );
    expect(gone.data).toMatchObject({ action: 'delete' });
    expect(leadStream.events.filter(about(farId))).toEqual([]);
    expect(selfStream.events.some(about(nearId))).toBe(false);
  });
});
