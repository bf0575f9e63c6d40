import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createTestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { createGadgetLabels, FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';

/**
 * Review of issue 36 (contract "Nothing lost"): each kind of account against the routes it added, over HTTP on
 * a real database: the administrator, a staff member whose role sees only its own records (`self`), a role
 * that hides one field and makes another read-only, a read-only role, and a personal API token granted fewer
 * permissions than its owner holds. Each may do exactly what its permissions and scope allow: a record out of
 * scope is a 404, a missing permission a 403, a hidden field absent and never written.
 */
const BASE = '/api/v1/test/gadgets';
const ALL = [
  'test.gadgets',
  'test.gadgets.create',
  'test.gadgets.update',
  'test.gadgets.delete',
  'test.gadgets.import',
  'test.gadget_parts',
  'test.gadget_makers',
];
let t: TestApp;
let admin: string;
let scoped: TestUser;
let hiding: TestUser;
let reader: TestUser;
let owner: TestUser;
let apiToken: string;
let sku = 0;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const req = (token: string, method: Method, url: string, payload?: unknown) =>
  t.request({
    method,
    url,
    token,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    headers: { 'accept-language': 'en' },
  });

/** The records of a paged answer (`data: { data, meta }`). */
const rowsOf = (res: { json(): unknown }) =>
  (res.json() as { data: { data: Record<string, unknown>[] } }).data.data;

/** A staff member holding one role saved through the role editor (its data scope and field access). */
async function member(menuIds: string[], extra: Record<string, unknown> = {}): Promise<TestUser> {
  const role = await req(admin, 'POST', '/api/v1/user/roles', {
    name: `role ${crypto.randomUUID()}`,
    permissions: { menu_ids: menuIds },
    ...extra,
  });
  expect(role.statusCode, role.body).toBe(201);
  const user = await createUser(t.db, { staff: {} });
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [
    user.staffId,
    role.json().data.id,
  ]);
  return user;
}

/** A gadget created by `token`, then updated once (versions 1 and 2). */
async function gadget(token: string): Promise<{ id: string; version: number }> {
  sku += 1;
  const made = await req(token, 'POST', BASE, {
    name: `Review ${sku}`,
    sku: `RV-${sku}`,
    price: 1,
    stock: 1,
    email: `first-${sku}@example.com`,
  });
  expect(made.statusCode, made.body).toBe(201);
  const id = String(made.json().data.id);
  const changed = await req(admin, 'PATCH', `${BASE}/${id}`, {
    name: `Review ${sku} v2`,
    stock: 2,
    email: `second-${sku}@example.com`,
    version: 1,
  });
  expect(changed.statusCode, changed.body).toBe(200);
  return { id, version: 2 };
}

beforeAll(async () => {
  // The product's modules (roles, tokens) and the fixture's resources, as engine-field-access does.
  createGadgetLabels();
  const fixtures = {
    ...createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS }),
    name: 'fixture-resources',
  };
  t = await createTestApp({}, { extraModules: [fixtures] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  admin = await t.adminToken();
  scoped = await member(ALL, { data_scope: 'self' });
  hiding = await member(ALL, { field_access: { 'gadgets.email': 'hidden', 'gadgets.stock': 'read' } });
  reader = await member(['test.gadgets', 'test.gadget_parts', 'test.gadget_makers']);
  owner = await member([...ALL, 'system.users.staff']);
  const made = await req(owner.token, 'POST', '/api/v1/user/tokens', {
    name: 'read only script',
    permissions: ['test.gadgets'],
    expires_at: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
  });
  expect(made.statusCode, made.body).toBe(200);
  apiToken = made.json().data.token as string;
});
afterAll(async () => {
  await t.close();
});

describe('history and restore of a version', () => {
  it('a staff member scoped to its own records: 404 on the history and restore of anyone else’s', async () => {
    const theirs = await gadget(admin);
    expect((await req(scoped.token, 'GET', `${BASE}/${theirs.id}/history`)).statusCode).toBe(404);
    const restore = await req(scoped.token, 'POST', `${BASE}/${theirs.id}/restore`, { version: 1 });
    expect(restore.statusCode, restore.body).toBe(404);
    const mine = await gadget(scoped.token);
    const history = await req(scoped.token, 'GET', `${BASE}/${mine.id}/history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(rowsOf(history).map((v) => v.version)).toEqual([2, 1]);
    const back = await req(scoped.token, 'POST', `${BASE}/${mine.id}/restore`, { version: 1 });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toMatchObject({ name: `Review ${sku}`, version: 3 });
  });

  it('a role with a hidden and a read-only field: neither shows in the history, restore keeps both', async () => {
    const g = await gadget(admin);
    const history = await req(hiding.token, 'GET', `${BASE}/${g.id}/history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(JSON.stringify(history.json())).not.toContain('@example.com');
    for (const v of rowsOf(history)) expect(v.changes).not.toHaveProperty('email');
    expect(rowsOf(history)[0]!.changes).toHaveProperty('name');
    expect((rowsOf(history)[0]!.changes as Record<string, unknown>).stock).toEqual([1, 2]);
    const back = await req(hiding.token, 'POST', `${BASE}/${g.id}/restore`, { version: 1 });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).not.toHaveProperty('email');
    const now = (await req(admin, 'GET', `${BASE}/${g.id}`)).json().data;
    expect(now).toMatchObject({ name: `Review ${sku}`, stock: 2, email: `second-${sku}@example.com` });
    const audit = await req(admin, 'GET', `${BASE}/${g.id}/history`);
    expect(rowsOf(audit)[0]).toMatchObject({ action: 'restore', version: 3 });
  });

  it('a read-only role and a token without the update permission read the history and may not restore', async () => {
    const g = await gadget(owner.token);
    for (const token of [reader.token, apiToken]) {
      const history = await req(token, 'GET', `${BASE}/${g.id}/history`);
      expect(history.statusCode, history.body).toBe(200);
      expect(rowsOf(history)).toHaveLength(2);
      const restore = await req(token, 'POST', `${BASE}/${g.id}/restore`, { version: 1 });
      expect(restore.statusCode, restore.body).toBe(403);
      const presence = await req(token, 'POST', `${BASE}/${g.id}/presence`, { state: 'editing' });
      expect(presence.statusCode, presence.body).toBe(403);
    }
    expect((await req(admin, 'GET', `${BASE}/${g.id}`)).json().data.version).toBe(2);
  });
});

describe('the trash', () => {
  it('a scoped staff member sees, restores and purges only its own trashed records', async () => {
    const theirs = await gadget(admin);
    const mine = await gadget(scoped.token);
    for (const g of [theirs, mine]) {
      const del = await req(admin, 'DELETE', `${BASE}/${g.id}`);
      expect(del.statusCode, del.body).toBe(200);
    }
    const list = await req(scoped.token, 'GET', `${BASE}/trash?size=100`);
    expect(list.statusCode, list.body).toBe(200);
    const ids = rowsOf(list).map((r) => r.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect((await req(scoped.token, 'POST', `${BASE}/trash/${theirs.id}/restore`, {})).statusCode).toBe(404);
    expect((await req(scoped.token, 'DELETE', `${BASE}/trash/${theirs.id}`)).statusCode).toBe(404);
    const back = await req(scoped.token, 'POST', `${BASE}/trash/${mine.id}/restore`, {});
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.id).toBe(mine.id);
  });

  it('a role with a hidden field does not see it in the trash', async () => {
    const g = await gadget(admin);
    expect((await req(admin, 'DELETE', `${BASE}/${g.id}`)).statusCode).toBe(200);
    const list = await req(hiding.token, 'GET', `${BASE}/trash?size=100`);
    expect(list.statusCode, list.body).toBe(200);
    const row = rowsOf(list).find((r) => r.id === g.id)!;
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty('email');
    expect(row.deleted_at).toEqual(expect.any(String));
    const search = await req(hiding.token, 'GET', `${BASE}/trash?search=email:second-${sku}@example.com`);
    expect(search.statusCode, search.body).toBe(422);
    const back = await req(hiding.token, 'POST', `${BASE}/trash/${g.id}/restore`, {});
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).not.toHaveProperty('email');
  });

  it('a read-only role and a token without the delete permission: 403 on every trash route', async () => {
    const g = await gadget(owner.token);
    expect((await req(owner.token, 'DELETE', `${BASE}/${g.id}`)).statusCode).toBe(200);
    for (const token of [reader.token, apiToken]) {
      expect((await req(token, 'GET', `${BASE}/trash`)).statusCode).toBe(403);
      expect((await req(token, 'POST', `${BASE}/trash/${g.id}/restore`, {})).statusCode).toBe(403);
      expect((await req(token, 'DELETE', `${BASE}/trash/${g.id}`)).statusCode).toBe(403);
    }
    const still = await req(admin, 'GET', `${BASE}/trash?size=100`);
    expect(rowsOf(still).map((r) => r.id)).toContain(g.id);
  });
});

describe('undo of an operation', () => {
  it('a token of the operation’s author without its permission may not undo it; the author may', async () => {
    const a = await gadget(owner.token);
    const b = await gadget(owner.token);
    const bulk = await req(owner.token, 'PATCH', `${BASE}?ids=${a.id},${b.id}`, { stock: 9 });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const op = String(bulk.json().meta.operation_id);
    const byToken = await req(apiToken, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(byToken.statusCode, byToken.body).toBe(403);
    const byReader = await req(reader.token, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(byReader.statusCode, byReader.body).toBe(403);
    const byScoped = await req(scoped.token, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(byScoped.statusCode, byScoped.body).toBe(404);
    const byOwner = await req(owner.token, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect([...byOwner.json().data.reverted].sort()).toEqual([a.id, b.id].sort());
  });

  it('undo by a role with a hidden and a read-only field reverts what it wrote and leaves those fields', async () => {
    const a = await gadget(admin);
    const bulk = await req(hiding.token, 'PATCH', `${BASE}?ids=${a.id}`, { name: 'Bulk named' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const op = String(bulk.json().meta.operation_id);
    const undo = await req(hiding.token, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().data).toEqual({ reverted: [a.id], skipped: [] });
    const now = (await req(admin, 'GET', `${BASE}/${a.id}`)).json().data;
    expect(now).toMatchObject({ name: `Review ${sku} v2`, stock: 2, email: `second-${sku}@example.com` });
  });
});

describe('undo within its days, once', () => {
  it('an operation older than 7 days is a 409 saying so in the request language; nothing reverted', async () => {
    const a = await gadget(owner.token);
    const bulk = await req(owner.token, 'PATCH', `${BASE}?ids=${a.id}`, { name: 'Old bulk' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const op = String(bulk.json().meta.operation_id);
    await t.db.query(`UPDATE operations SET created_at = now() - interval '8 days' WHERE id = $1`, [op]);
    const late = await req(owner.token, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().message).toBe('This operation is older than 7 days and can no longer be undone');
    const zh = await t.request({
      method: 'POST',
      url: `/api/v1/operations/${op}/undo`,
      token: owner.token,
      payload: {},
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.statusCode, zh.body).toBe(409);
    expect(zh.json().message).toBe('该操作已超过 7 天，不能再撤销');
    expect((await req(admin, 'GET', `${BASE}/${a.id}`)).json().data.name).toBe('Old bulk');
    // Within the days: once; the second is a 409, and an unknown operation a 404.
    await t.db.query(`UPDATE operations SET created_at = now() WHERE id = $1`, [op]);
    expect((await req(owner.token, 'POST', `/api/v1/operations/${op}/undo`, {})).statusCode).toBe(200);
    const again = await req(owner.token, 'POST', `/api/v1/operations/${op}/undo`, {});
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toBe('This operation has already been undone');
    expect((await req(owner.token, 'POST', '/api/v1/operations/999999999/undo', {})).statusCode).toBe(404);
  });
});

describe('a unique value held by a trashed record', () => {
  it('names the trashed record only to a caller who may restore it', async () => {
    const held = await gadget(admin);
    expect((await req(admin, 'DELETE', `${BASE}/${held.id}`)).statusCode).toBe(200);
    const copy = { name: 'Copy', sku: `RV-${sku}`, price: 1 };
    // Anyone with the delete permission who sees the record: the id, so the screen can offer the restore.
    const seen = await req(hiding.token, 'POST', BASE, copy);
    expect(seen.statusCode, seen.body).toBe(409);
    expect(seen.json().message).toContain('trash');
    expect(seen.json().errors.trashed_id).toEqual([held.id]);
    // Out of the caller's scope: still a 409 saying so, without the id of a record it may not see.
    const unseen = await req(scoped.token, 'POST', BASE, copy);
    expect(unseen.statusCode, unseen.body).toBe(409);
    expect(unseen.json().message).toContain('trash');
    expect(unseen.json().errors).toEqual({ sku: ['Taken by a record in the trash'] });
    expect(unseen.body).not.toContain(`"${held.id}"`);
  });
});

describe('invitations of a staff manager scoped to its department (issue 34 item 8)', () => {
  it('re-issues and sends only for staff in its scope: a record outside it is a 404', async () => {
    const dept = async (name: string) => {
      const res = await req(admin, 'POST', '/api/v1/user/departments', { name });
      expect(res.statusCode, res.body).toBe(201);
      return String(res.json().data.id);
    };
    const [home, away] = [await dept('Review home'), await dept('Review away')];
    const manager = await member(['system.users', 'system.users.staff', 'system.users.staff.update'], {
      data_scope: 'department',
    });
    await t.db.query('UPDATE staff SET department_id = $1 WHERE id = $2', [home, manager.staffId]);
    const invitee = async (department: string) => {
      const res = await req(admin, 'POST', '/api/v1/user/staff', {
        name: `Invitee ${department}`,
        department_id: department,
        email: `invitee-${department}@example.com`,
      });
      expect(res.statusCode, res.body).toBe(201);
      return String(res.json().data.id);
    };
    const [near, far] = [await invitee(home), await invitee(away)];
    const { rows: before } = await t.db.query<{ invitation_hash: string }>(
      'SELECT invitation_hash FROM staff WHERE id = $1',
      [far],
    );

    expect((await req(manager.token, 'GET', `/api/v1/user/staff/${far}`)).statusCode).toBe(404);
    const copy = await req(manager.token, 'POST', `/api/v1/user/staff/${far}/invitation`, {});
    expect(copy.statusCode, copy.body).toBe(404);
    const send = await req(manager.token, 'POST', `/api/v1/user/staff/${far}/invitation/send`, {
      channel: 'email',
    });
    expect(send.statusCode, send.body).toBe(404);
    const { rows: after } = await t.db.query<{ invitation_hash: string }>(
      'SELECT invitation_hash FROM staff WHERE id = $1',
      [far],
    );
    expect(after[0]!.invitation_hash).toBe(before[0]!.invitation_hash);

    const mine = await req(manager.token, 'POST', `/api/v1/user/staff/${near}/invitation`, {});
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data.invitation_url).toContain('invitation=');
  });
});
