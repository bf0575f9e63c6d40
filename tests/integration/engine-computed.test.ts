import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { createUser } from '../helpers/users.ts';

/**
 * Computed columns (issue 35 item 8; the fixture's `stock_value`, `price * stock` in SQL, and `label`, a
 * function of the record). Seeded random gadgets, full of ties (stock 0, equal products); the oracle is
 * plain TypeScript over the values the test chose: each record's value, the order of `orderBy=stock_value`
 * in both directions (ties by id, as every list ends in the id), by page and by cursor, a range search,
 * include, CSV export; never written, refused in `orderBy`/`search` where not declared, hidden by field
 * access, readOnly in OpenAPI. Runs on PGlite and on PostgreSQL (`npm run test:pg`).
 */
const BASE = '/api/v1/test/gadgets';
const SEED = 35;
const COUNT = 40;
let t: TestApp;
let admin: string;
const chosen = new Map<string, { name: string; sku: string; price: number; stock: number }>();

/** A small seeded generator (mulberry32): the same records on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const value = (id: string) => chosen.get(id)!.price * chosen.get(id)!.stock;
const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** The oracle's order of `orderBy=stock_value&sortedBy=<dir>`: by the product, then by id the same way. */
function expectedOrder(ids: string[], desc: boolean): string[] {
  const sign = desc ? -1 : 1;
  return [...ids].sort((a, b) => sign * (value(a) - value(b) || byId(a, b)));
}

const get = (url: string, token = admin) => t.request({ url, token, headers: { 'accept-language': 'en' } });

async function listIds(query: string): Promise<{ ids: string[]; next: string | null; rows: Row[] }> {
  const res = await get(`${BASE}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().data as { data: Row[]; meta: { pagination: { next_cursor: string | null } } };
  return { ids: body.data.map((r) => r.id), next: body.meta.pagination.next_cursor, rows: body.data };
}
type Row = { id: string; stock_value?: number; label?: string; [key: string]: unknown };

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  const next = random(SEED);
  for (let i = 0; i < COUNT; i++) {
    // Few distinct prices and stocks: equal products and zeros give the ties the id must break.
    const price = [0, 0.5, 1.25, 2, 10, 99.99][Math.floor(next() * 6)]!;
    const stock = [0, 1, 2, 3, 8, 40][Math.floor(next() * 6)]!;
    const rec = { name: `Comp ${i}`, sku: `CMP-${i}`, price, stock };
    const res = await t.request({ method: 'POST', url: BASE, token: admin, payload: rec });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as Row;
    // The create's answer carries both computed values already.
    expect(data.stock_value).toBe(price * stock);
    expect(data.label).toBe(`Comp ${i} (CMP-${i})`);
    chosen.set(data.id, rec);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('computed columns', () => {
  it('answers each record its value on read and list', async () => {
    const { rows } = await listIds('size=1000');
    expect(rows).toHaveLength(COUNT);
    for (const r of rows) {
      expect(r.stock_value, r.id).toBe(value(r.id));
      expect(r.label).toBe(`${chosen.get(r.id)!.name} (${chosen.get(r.id)!.sku})`);
    }
    const [id] = [...chosen.keys()];
    const read = (await get(`${BASE}/${id}`)).json().data as Row;
    expect(read).toMatchObject({
      stock_value: value(id!),
      label: `${chosen.get(id!)!.name} (${chosen.get(id!)!.sku})`,
    });
  });

  it('sorts by the SQL one in both directions, whole, by page and by cursor, as the oracle does', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const query = `orderBy=stock_value&sortedBy=${dir}`;
      const expected = expectedOrder([...chosen.keys()], dir === 'desc');
      expect((await listIds(`${query}&size=1000`)).ids, `whole ${dir}`).toEqual(expected);
      const byPage: string[] = [];
      for (let page = 1; page <= Math.ceil(COUNT / 7); page++)
        byPage.push(...(await listIds(`${query}&size=7&page=${page}`)).ids);
      expect(byPage, `by page ${dir}`).toEqual(expected);
      const byCursor: string[] = [];
      let next: string | null = null;
      for (let step = 0; step <= COUNT; step++) {
        const p = await listIds(`${query}&size=7${next ? `&cursor=${encodeURIComponent(next)}` : ''}`);
        byCursor.push(...p.ids);
        next = p.next;
        if (!next) break;
      }
      expect(byCursor, `by cursor ${dir}`).toEqual(expected);
    }
  });

  it('searches the SQL one with its declared conditions, as the oracle finds', async () => {
    const between = await listIds('search=stock_value:2,20&searchFields=stock_value:between&size=1000');
    const inRange = [...chosen.keys()].filter((id) => value(id) >= 2 && value(id) <= 20);
    expect(new Set(between.ids)).toEqual(new Set(inRange));
    expect(inRange.length).toBeGreaterThan(0);
    const atLeast = await listIds('search=stock_value:100&searchFields=stock_value:>=&size=1000');
    expect(new Set(atLeast.ids)).toEqual(new Set([...chosen.keys()].filter((id) => value(id) >= 100)));
    // A condition it does not declare, and the function one (neither sortable nor searchable): 422.
    const like = await get(`${BASE}?search=stock_value:1&searchFields=stock_value:like`);
    expect(like.statusCode).toBe(422);
    for (const query of ['orderBy=label', 'search=label:x&searchFields=label:=']) {
      const res = await get(`${BASE}?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().errors), query).toEqual(['label']);
    }
  });

  it('is embedded with include and exported by CSV (the SQL one only)', async () => {
    const [id] = [...chosen.keys()];
    const part = await t.request({
      method: 'POST',
      url: '/api/v1/test/gadget-parts',
      token: admin,
      payload: { gadget_id: id, name: 'Bolt' },
    });
    expect(part.statusCode, part.body).toBe(201);
    const res = await get(`/api/v1/test/gadget-parts/${part.json().data.id}?include=gadget`);
    expect(res.json().data.gadget).toMatchObject({ id, stock_value: value(id!) });

    const csv = await get(`${BASE}/export?fields=sku,stock_value&orderBy=stock_value&sortedBy=desc`);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.slice(1).trim().split('\n');
    expect(lines[0]).toMatch(/^SKU,/);
    const expected = expectedOrder([...chosen.keys()], true);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected.map((i) => chosen.get(i)!.sku));
    expect(lines.slice(1).map((l) => Number(l.split(',')[1]))).toEqual(expected.map(value));
    const fn = await get(`${BASE}/export?fields=sku,label`);
    expect(fn.statusCode).toBe(422);
  });

  it('is never written: a create or update naming it is a 422 and changes nothing', async () => {
    const create = await t.request({
      method: 'POST',
      url: BASE,
      token: admin,
      payload: { name: 'W', sku: 'CMP-W', price: 1, stock_value: 5 },
    });
    expect(create.statusCode).toBe(422);
    expect(Object.keys(create.json().errors)).toContain('stock_value');
    const [id] = [...chosen.keys()];
    const before = (await get(`${BASE}/${id}`)).json().data as Row & { version: number };
    for (const payload of [{ stock_value: 1 }, { label: 'x' }]) {
      const res = await t.request({
        method: 'PATCH',
        url: `${BASE}/${id}`,
        token: admin,
        payload: { ...payload, version: before.version },
      });
      expect(res.statusCode, res.body).toBe(422);
    }
    expect((await get(`${BASE}/${id}`)).json().data).toEqual(before);
  });

  it('is hidden by field access: left out of records, a 422 in orderBy and search', async () => {
    const user = await createUser(t.db, { staff: {} });
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO roles (name, permissions, data_scope, field_access) VALUES ($1, $2, 'all', $3) RETURNING id`,
      [
        `role ${crypto.randomUUID()}`,
        JSON.stringify({ menu_ids: ['test', 'test.gadgets', 'test.gadgets.export'] }),
        JSON.stringify({ 'gadgets.stock_value': 'hidden' }),
      ],
    );
    await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [
      user.staffId,
      rows[0]!.id,
    ]);
    const list = await get(`${BASE}?size=5`, user.token);
    expect(list.statusCode, list.body).toBe(200);
    const records = list.json().data.data as Row[];
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(r).not.toHaveProperty('stock_value');
      expect(r).toHaveProperty('label');
    }
    for (const query of ['orderBy=stock_value', 'search=stock_value:1&searchFields=stock_value:>=']) {
      const res = await get(`${BASE}?${query}`, user.token);
      expect(res.statusCode, query).toBe(422);
    }
    expect((await get(`${BASE}/export?fields=sku,stock_value`, user.token)).statusCode).toBe(422);
  });

  it('is hidden with the fields it is computed from: a hidden input hides the value derived from it', async () => {
    // Review of issue 35 (R1): `stock_value` is price * stock and `label` shows the name; a role that hides
    // `price` and `name` but not the computed fields must not read them back through the computed ones
    // (nor sort by, search, export or be told the field is visible).
    const user = await createUser(t.db, { staff: {} });
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO roles (name, permissions, data_scope, field_access) VALUES ($1, $2, 'all', $3) RETURNING id`,
      [
        `role ${crypto.randomUUID()}`,
        JSON.stringify({ menu_ids: ['test', 'test.gadgets', 'test.gadgets.export'] }),
        JSON.stringify({ 'gadgets.price': 'hidden', 'gadgets.name': 'hidden' }),
      ],
    );
    await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [
      user.staffId,
      rows[0]!.id,
    ]);
    const [id] = [...chosen.keys()];
    const list = await get(`${BASE}?size=5`, user.token);
    expect(list.statusCode, list.body).toBe(200);
    const records = list.json().data.data as Row[];
    expect(records.length).toBeGreaterThan(0);
    const one = await get(`${BASE}/${id}`, user.token);
    expect(one.statusCode, one.body).toBe(200);
    for (const r of [...records, one.json().data as Row]) {
      expect(r).not.toHaveProperty('price');
      expect(r).not.toHaveProperty('stock_value');
      expect(r).not.toHaveProperty('label');
      expect(r).toHaveProperty('stock');
    }
    for (const query of ['orderBy=stock_value', 'search=stock_value:1&searchFields=stock_value:>=']) {
      const res = await get(`${BASE}?${query}`, user.token);
      expect(res.statusCode, query).toBe(422);
    }
    expect((await get(`${BASE}/export?fields=sku,stock_value`, user.token)).statusCode).toBe(422);
    const info = (await get('/api/v1/user/info', user.token)).json().data as {
      field_access: Record<string, string>;
    };
    expect(info.field_access).toMatchObject({
      'gadgets.stock_value': 'hidden',
      'gadgets.label': 'hidden',
    });
    // The administrator still gets both.
    const whole = (await get(`${BASE}/${id}`)).json().data as Row;
    expect(whole.stock_value).toBe(value(id!));
    expect(whole.label).toBe(`${chosen.get(id!)!.name} (${chosen.get(id!)!.sku})`);
  });

  it('is typed read-only in the OpenAPI document', async () => {
    const doc = (await t.request({ url: '/api/docs/json' })).json();
    const schemas = doc.components.schemas as Record<string, { properties?: Record<string, object> }>;
    const record = Object.entries(schemas).find(
      ([name, s]) => /Record$/.test(name) && s.properties?.stock_value,
    );
    expect(record).toBeDefined();
    expect(record![1].properties!.stock_value).toMatchObject({ type: 'number', readOnly: true });
    expect(record![1].properties!.label).toMatchObject({ type: 'string', readOnly: true });
    const create = Object.entries(schemas).find(([name, s]) => /Create$/.test(name) && s.properties?.sku);
    expect(create![1].properties).not.toHaveProperty('stock_value');
  });
});
