import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { grantablePermissionNames, settingsMenu } from '../../schemas/permissions.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Row and bulk actions declared on a resource (issue 35 item 7; the fixture's `ship` and `retire`): the
 * permission `<permission>.<key>` (grantable, in the role tree), the input validated, the version check,
 * the data scope and field access, one transaction with an audit row per record, live events, OpenAPI.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let base: string;
let sku = 0;
const streams: SseStream[] = [];

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, payload?: object, token = admin) =>
  t.request({ method, url, token, headers: { 'accept-language': 'en' }, ...(payload ? { payload } : {}) });

async function gadget(extra: object = {}, token = admin): Promise<{ id: string; version: number }> {
  sku += 1;
  const res = await call('POST', BASE, { name: `Act ${sku}`, sku: `ACT-${sku}`, price: 1, ...extra }, token);
  expect(res.statusCode, res.body).toBe(201);
  const { id, version } = res.json().data as { id: string; version: number };
  return { id, version };
}

async function stored(id: string) {
  const { rows } = await t.db.query<{ stock: number; state: boolean; version: number }>(
    'SELECT stock, state, version FROM gadgets WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

async function audits(action: string, id: string) {
  const { rows } = await t.db.query<{ changes: Record<string, [unknown, unknown]> }>(
    'SELECT changes FROM activity_logs WHERE action = $1 AND subject_id::text = $2 ORDER BY id',
    [action, id],
  );
  return rows;
}

/** A staff member whose one role holds `menuIds` (with a data scope and field access when given). */
async function roleHolder(
  menuIds: string[],
  { data_scope = 'all', field_access = {} }: { data_scope?: string; field_access?: object } = {},
): Promise<TestUser> {
  const user = await createUser(t.db, { staff: {} });
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO roles (name, permissions, data_scope, field_access) VALUES ($1, $2, $3, $4) RETURNING id`,
    [
      `role ${crypto.randomUUID()}`,
      JSON.stringify({ menu_ids: menuIds }),
      data_scope,
      JSON.stringify(field_access),
    ],
  );
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [
    user.staffId,
    rows[0]!.id,
  ]);
  return user;
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

describe('POST <path>/<id>/actions/<key>', () => {
  it('runs the handler in one transaction: the fields it returns, the version bumped, an audit row', async () => {
    const { id, version } = await gadget({ stock: 10 });
    const res = await call('POST', `${BASE}/${id}/actions/ship`, { version, input: { quantity: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id, stock: 7, version: version + 1 });
    expect(await stored(id)).toMatchObject({ stock: 7, version: version + 1 });
    const rows = await audits('gadgets.ship', id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.changes).toMatchObject({ stock: [10, 7], version: [version, version + 1] });
    // The history counts it as a version.
    const history = await call('GET', `${BASE}/${id}/history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.data[0]).toMatchObject({ version: version + 1, action: 'update' });
  });

  it('validates the input with the action schema: 422 naming the field, nothing written', async () => {
    const { id, version } = await gadget({ stock: 10 });
    const res = await call('POST', `${BASE}/${id}/actions/ship`, { version, input: { quantity: 0 } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['quantity']);
    // A result the resource's own rules refuse (stock below 0) is a 422 as well, and rolls back.
    const over = await call('POST', `${BASE}/${id}/actions/ship`, { version, input: { quantity: 11 } });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors).toHaveProperty('stock');
    expect(await stored(id)).toMatchObject({ stock: 10, version });
    expect(await audits('gadgets.ship', id)).toHaveLength(0);
  });

  it('answers a stale version with 409 and the current record, and writes nothing', async () => {
    const { id, version } = await gadget({ stock: 5 });
    expect((await call('POST', `${BASE}/${id}/actions/retire`, { version })).statusCode).toBe(200);
    const res = await call('POST', `${BASE}/${id}/actions/ship`, { version, input: { quantity: 1 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toHaveProperty('version');
    expect(res.json().data).toMatchObject({ id, version: version + 1, state: false, stock: 5 });
    expect(await stored(id)).toMatchObject({ stock: 5, version: version + 1 });
  });

  it('needs <permission>.<key>, which the role tree offers and a role may hold', async () => {
    const { id } = await gadget({ stock: 5 });
    const reader = await roleHolder(['test', 'test.gadgets', 'test.gadgets.update']);
    const denied = await call('POST', `${BASE}/${id}/actions/ship`, { input: { quantity: 1 } }, reader.token);
    expect(denied.statusCode).toBe(403);
    const shipper = await roleHolder(['test', 'test.gadgets', 'test.gadgets.ship']);
    const ok = await call('POST', `${BASE}/${id}/actions/ship`, { input: { quantity: 1 } }, shipper.token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await stored(id)).toMatchObject({ stock: 4 });
    // The role tree and the server's check of a role's names read the same menu.
    const names = grantablePermissionNames(settingsMenu(fixtureResources));
    expect(names.has('test.gadgets.ship') && names.has('test.gadgets.retire')).toBe(true);
    const page = settingsMenu(fixtureResources)
      .flatMap((g) => g.children ?? [])
      .find((item) => item.name === 'test.gadgets');
    expect(page?.grants).toContainEqual({
      name: 'test.gadgets.ship',
      title: 'resources.gadgets.actions.ship',
    });
    // An unknown action is no route.
    expect((await call('POST', `${BASE}/${id}/actions/nope`, {})).statusCode).toBe(404);
  });

  it('applies the data scope (404 outside it) and field access (403 for a read-only field)', async () => {
    const mine = await roleHolder(['test', 'test.gadgets', 'test.gadgets.create', 'test.gadgets.ship'], {
      data_scope: 'self',
    });
    const own = await gadget({ stock: 5 }, mine.token);
    const other = await gadget({ stock: 5 });
    const outside = await call(
      'POST',
      `${BASE}/${other.id}/actions/ship`,
      { input: { quantity: 1 } },
      mine.token,
    );
    expect(outside.statusCode).toBe(404);
    expect(await stored(other.id)).toMatchObject({ stock: 5 });
    const inside = await call(
      'POST',
      `${BASE}/${own.id}/actions/ship`,
      { input: { quantity: 1 } },
      mine.token,
    );
    expect(inside.statusCode, inside.body).toBe(200);

    const readOnly = await roleHolder(['test', 'test.gadgets', 'test.gadgets.ship'], {
      field_access: { 'gadgets.stock': 'read' },
    });
    const res = await call(
      'POST',
      `${BASE}/${own.id}/actions/ship`,
      { input: { quantity: 1 } },
      readOnly.token,
    );
    expect(res.statusCode).toBe(403);
    expect(await stored(own.id)).toMatchObject({ stock: 4 });
  });

  it('sends the record live event after commit', async () => {
    const stream = await openSse(base, admin);
    streams.push(stream);
    await stream.connected();
    const { id } = await gadget({ stock: 5 });
    await call('POST', `${BASE}/${id}/actions/ship`, { input: { quantity: 2 } });
    const event = await stream.waitFor(
      (e) =>
        e.event === 'record' &&
        (e.data as { id?: string }).id === id &&
        (e.data as { action?: string }).action === 'update',
    );
    expect(event.data).toMatchObject({ resource: 'gadgets', action: 'update' });
  });
});

describe('POST <path>/actions/<key>?ids=', () => {
  it('runs a bulk action on every record, all or nothing, with an audit row each', async () => {
    const a = await gadget();
    const b = await gadget();
    const res = await call('POST', `${BASE}/actions/retire?ids=${a.id},${b.id}`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([a.id, b.id]);
    for (const { id, version } of [a, b]) {
      expect(await stored(id)).toMatchObject({ state: false, version: version + 1 });
      expect(await audits('gadgets.retire', id)).toHaveLength(1);
    }
    const c = await gadget();
    const missing = await call('POST', `${BASE}/actions/retire?ids=${c.id},999999999`, {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors.ids).toEqual(['999999999']);
    expect(await stored(c.id)).toMatchObject({ state: true, version: c.version });
  });

  it('is only mounted for an action declared bulk, under the same permission', async () => {
    const a = await gadget({ stock: 3 });
    expect(
      (await call('POST', `${BASE}/actions/ship?ids=${a.id}`, { input: { quantity: 1 } })).statusCode,
    ).toBe(404);
    const reader = await roleHolder(['test', 'test.gadgets', 'test.gadgets.update']);
    expect((await call('POST', `${BASE}/actions/retire?ids=${a.id}`, {}, reader.token)).statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents each action with its named input schema', async () => {
    const doc = (await call('GET', '/api/docs/json')).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.paths['/api/v1/test/gadgets/{id}/actions/ship']?.post?.operationId).toBe('actionGadgetsShip');
    expect(doc.paths['/api/v1/test/gadgets/actions/retire']?.post?.operationId).toBe(
      'bulkActionGadgetsRetire',
    );
    expect(doc.paths['/api/v1/test/gadgets/actions/ship']).toBeUndefined();
    expect(doc.components.schemas.GadgetsShipInput?.properties).toHaveProperty('quantity');
  });
});
