import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';
import { createUser } from '../helpers/users.ts';

/**
 * The contract's bulk calls (amendment "Bulk calls"): `PATCH <path>?ids=` and `DELETE <path>?ids=`, one
 * transaction, all or nothing, an audit row per record, one live event, 404 naming the missing ids, and the
 * single calls' permissions and per-record rules (the people module's hooks included).
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let base: string;
const streams: SseStream[] = [];

type Res = Awaited<ReturnType<TestApp['request']>>;
const call = (method: 'PATCH' | 'DELETE' | 'POST' | 'GET', url: string, payload?: object, token = admin) =>
  t.request({
    method,
    url,
    token,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });
const idsOf = (res: Res) => (res.json() as { data: { id: string } }).data.id;

let serial = 0;
async function gadgets(count: number, extra: object = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    serial += 1;
    const res = await call('POST', BASE, {
      name: `Bulk ${serial}`,
      sku: `BULK-${serial}`,
      price: 1,
      ...extra,
    });
    expect(res.statusCode).toBe(201);
    ids.push(idsOf(res));
  }
  return ids;
}

async function rowsOf(ids: string[]) {
  const { rows } = await t.db.query<{ id: string; state: boolean; price: string | number }>(
    `SELECT id::text AS id, state, price FROM gadgets WHERE id::text = ANY($1::text[]) ORDER BY gadgets.id`,
    [ids],
  );
  return rows;
}

async function auditCount(action: string, ids: string[]): Promise<number> {
  const { rows } = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM activity_logs WHERE action = $1 AND subject_id::text = ANY($2::text[])`,
    [action, ids],
  );
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
});

describe('PATCH <path>?ids=', () => {
  it('applies the change to every record in one call, with an audit row each and one live event', async () => {
    const stream = await openSse(base, admin);
    streams.push(stream);
    // The first bytes (a comment) mean the subscription is in place.
    await stream.connected();
    const ids = await gadgets(3);
    const res = await call('PATCH', `${BASE}?ids=${ids.join(',')}`, { state: false, price: 7 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 200,
      data: ids,
      meta: { operation_id: expect.stringMatching(/^\d+$/) },
    });
    expect((await rowsOf(ids)).map((r) => [r.state, Number(r.price)])).toEqual([
      [false, 7],
      [false, 7],
      [false, 7],
    ]);
    expect(await auditCount('gadgets.update', ids)).toBe(3);
    const event = await stream.waitFor(
      (e) => e.event === 'record' && (e.data as { ids?: string[] | null }).ids?.includes(ids[0]!) === true,
    );
    expect(event.data).toMatchObject({ resource: 'gadgets', id: null, action: 'update', ids });
  });

  it('changes nothing when one id is missing: 404 whose errors.ids lists the missing ones', async () => {
    const ids = await gadgets(2);
    const missing = ['987654321', 'abc', '99999999999999999999'];
    const res = await call('PATCH', `${BASE}?ids=${[...ids, ...missing].join(',')}`, { state: false });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, data: null, errors: { ids: missing } });
    expect(res.json().message).toBe('3 of the records were not found; nothing was changed');
    expect((await rowsOf(ids)).map((r) => r.state)).toEqual([true, true]);
    expect(await auditCount('gadgets.update', ids)).toBe(0);
  });

  it('is all or nothing when one record breaks a rule (a unique value)', async () => {
    const ids = await gadgets(2);
    const res = await call('PATCH', `${BASE}?ids=${ids.join(',')}`, { sku: 'SAME-SKU', price: 3 });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toHaveProperty('sku');
    expect((await rowsOf(ids)).map((r) => Number(r.price))).toEqual([1, 1]);
    expect(await auditCount('gadgets.update', ids)).toBe(0);
  });

  it('validates the body like the single update (422, nothing written)', async () => {
    const ids = await gadgets(1);
    const res = await call('PATCH', `${BASE}?ids=${ids[0]}`, { price: -1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('price');
  });

  it('takes repeated ids once, and 1..1000 ids (422 naming ids otherwise)', async () => {
    const ids = await gadgets(1);
    const twice = await call('PATCH', `${BASE}?ids=${ids[0]},${ids[0]}`, { price: 2 });
    expect(twice.json()).toEqual({
      code: 200,
      data: ids,
      meta: { operation_id: expect.stringMatching(/^\d+$/) },
    });
    expect(await auditCount('gadgets.update', ids)).toBe(1);
    const none = await call('PATCH', BASE, { price: 2 });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toHaveProperty('ids');
    const tooMany = Array.from({ length: 1001 }, (_, i) => String(i + 1)).join(',');
    const over = await call('PATCH', `${BASE}?ids=${tooMany}`, { price: 2 });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      message: 'At most 1000 records at a time',
      errors: { ids: [expect.any(String)] },
    });
  });
});

describe('DELETE <path>?ids=', () => {
  it('deletes every listed record (to the trash) with an audit row each', async () => {
    const ids = await gadgets(3);
    const res = await call('DELETE', `${BASE}?ids=${ids.join(',')}`);
    expect(res.json()).toEqual({
      code: 200,
      data: ids,
      meta: { operation_id: expect.stringMatching(/^\d+$/) },
    });
    const { rows } = await t.db.query(
      `SELECT id FROM gadgets WHERE id::text = ANY($1::text[]) AND deleted_at IS NULL`,
      [ids],
    );
    expect(rows).toEqual([]);
    for (const id of ids) expect((await call('GET', `${BASE}/${id}`)).statusCode).toBe(404);
    expect(await auditCount('gadgets.delete', ids)).toBe(3);
  });

  it('deletes nothing when one id is missing', async () => {
    const ids = await gadgets(2);
    const res = await call('DELETE', `${BASE}?ids=${ids.join(',')},987654322`);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors).toEqual({ ids: ['987654322'] });
    expect(await rowsOf(ids)).toHaveLength(2);
  });
});

describe('permissions', () => {
  it('needs the same permission as the single call', async () => {
    const ids = await gadgets(1);
    const reader = await staffToken(t, 'bulk-reader', ['test.gadgets']);
    expect((await call('PATCH', `${BASE}?ids=${ids[0]}`, { price: 5 }, reader)).statusCode).toBe(403);
    expect((await call('DELETE', `${BASE}?ids=${ids[0]}`, undefined, reader)).statusCode).toBe(403);
    // Forbidden comes before anything about the ids: a missing id is no way to probe.
    expect((await call('DELETE', `${BASE}?ids=987654323`, undefined, reader)).statusCode).toBe(403);
    const editor = await staffToken(t, 'bulk-editor', ['test.gadgets', 'test.gadgets.update']);
    expect((await call('PATCH', `${BASE}?ids=${ids[0]}`, { price: 5 }, editor)).statusCode).toBe(200);
    expect((await call('DELETE', `${BASE}?ids=${ids[0]}`, undefined, editor)).statusCode).toBe(403);
    const anonymous = await t.request({ method: 'DELETE', url: `${BASE}?ids=${ids[0]}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the people rules hold for bulk calls', () => {
  let p: TestApp;
  let root: string;
  beforeAll(async () => {
    p = await createTestApp();
    root = await p.adminToken();
  });
  afterAll(() => p.close());
  const people = (method: 'PATCH' | 'DELETE' | 'POST', url: string, token: string, payload?: object) =>
    p.request({
      method,
      url: `/api/v1/user/${url}`,
      token,
      headers: { 'accept-language': 'en' },
      ...(payload ? { payload } : {}),
    });

  it('staff: nobody disables themselves among others; nothing changes', async () => {
    const manager = await createUser(p.db, {
      staff: { permissions: ['system.users', 'system.users.staff', 'system.users.staff.update'] },
    });
    const other = idsOf(await people('POST', 'staff', root, { name: 'Bulk Other' }));
    const res = await people('PATCH', `staff?ids=${other},${manager.staffId}`, manager.token, {
      state: false,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You cannot disable or delete yourself');
    const { rows } = await p.db.query<{ state: boolean }>('SELECT state FROM staff WHERE id = $1', [other]);
    expect(rows[0]!.state).toBe(true);
  });

  it('staff: a non-administrator cannot bulk-edit an administrator', async () => {
    const manager = await createUser(p.db, {
      staff: { permissions: ['system.users', 'system.users.staff', 'system.users.staff.update'] },
    });
    const boss = await createUser(p.db, { staff: { isAdmin: true } });
    const plain = idsOf(await people('POST', 'staff', root, { name: 'Bulk Plain' }));
    const res = await people('PATCH', `staff?ids=${plain},${boss.staffId}`, manager.token, { state: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Only an administrator can change an administrator');
    const { rows } = await p.db.query<{ state: boolean }>('SELECT state FROM staff WHERE id = $1', [plain]);
    expect(rows[0]!.state).toBe(true);
  });

  it('departments: one with staff cannot be deleted, so none is (409)', async () => {
    const empty = idsOf(await people('POST', 'departments', root, { name: 'Bulk Empty' }));
    const used = idsOf(await people('POST', 'departments', root, { name: 'Bulk Used' }));
    await people('POST', 'staff', root, { name: 'Bulk Member', department_id: used });
    const res = await people('DELETE', `departments?ids=${empty},${used}`, root);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'This department is still used by 1 staff members or sub-departments; move them first',
    );
    expect(res.json().errors.holders).toBe(1);
    const { rows } = await p.db.query(
      'SELECT id FROM departments WHERE id IN ($1, $2) AND deleted_at IS NULL',
      [empty, used],
    );
    expect(rows).toHaveLength(2);
  });

  it('roles: a non-administrator cannot bulk-edit a role they hold', async () => {
    const perms = ['system.users', 'system.users.roles', 'system.users.roles.update'];
    const manager = await createUser(p.db, { staff: { permissions: perms } });
    const { rows } = await p.db.query<{ role_id: string }>(
      'SELECT role_id FROM staff_roles WHERE staff_id = $1',
      [manager.staffId],
    );
    const own = String(rows[0]!.role_id);
    const other = idsOf(
      await people('POST', 'roles', root, { name: 'Bulk role', permissions: { menu_ids: [] } }),
    );
    const res = await people('PATCH', `roles?ids=${other},${own}`, manager.token, { sort: 9 });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You cannot change your own roles');
    const after = await p.db.query<{ sort: number }>('SELECT sort FROM roles WHERE id = $1', [other]);
    expect(after.rows[0]!.sort).not.toBe(9);
  });
});
