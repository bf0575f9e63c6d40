import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineResource, reference, references } from '../../resources/define.ts';
import { departments } from '../../resources/departments.ts';
import { fieldsOf, sortableFields } from '../../resources/fields.ts';
import { snapshotOf } from '../../server/engine/schema/snapshot.ts';
import { safeError } from '../../server/core/http.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources, gadgetShipments } from '../fixtures/gadgets.ts';
import '../fixtures/registry.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The examples of issue 11, each a regression test over HTTP (PGlite by default, PostgreSQL under test:pg):
 * what used to answer 500 or store wrong data now answers the contract's 4xx in the envelope.
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({}, { resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS });
  admin = await t.adminToken();
  // Building the app with the fixture takes long on a loaded 2-core machine.
}, 180_000);
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, lang = 'en') =>
  t.request({
    method,
    url,
    token: admin,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: { 'accept-language': lang },
  });
const G = '/api/v1/test/gadgets';
const M = '/api/v1/test/gadget-makers';
const S = '/api/v1/test/gadget-shipments';

function expectEnvelope(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ code: status, data: null, message: expect.any(String) });
}

describe('two required references in one schema', () => {
  it('each reference() is its own schema, so each foreign key points at its own table', () => {
    const ships = defineResource({
      name: 'ships',
      endpoint: 'v1/ships',
      permission: 'ships',
      schema: z.object({
        gadget_id: reference('gadgets', { required: true }),
        maker_id: reference('gadget_makers', { required: true }),
        tag_ids: references('gadget_tags'),
        other_ids: references('gadgets'),
      }),
    });
    const [a, b, c, d] = fieldsOf(ships);
    expect(a!.schema).not.toBe(b!.schema);
    expect(c!.schema).not.toBe(d!.schema);
    expect(fieldsOf(ships).map((f) => f.meta.relation?.resource)).toEqual([
      'gadgets',
      'gadget_makers',
      'gadget_tags',
      'gadgets',
    ]);
    const fks = snapshotOf(ships, fixtureResources)
      .columns.filter((col) => col.references)
      .map((col) => [col.name, col.references!.table, col.references!.onDelete]);
    expect(fks).toEqual([
      ['gadget_id', 'gadgets', 'RESTRICT'],
      ['maker_id', 'gadget_makers', 'RESTRICT'],
    ]);
  });

  it('the generated migration of the fixture with two required references has the right foreign keys', () => {
    const sql = fs.readFileSync(path.join(FIXTURE_MIGRATIONS, '0010_gadget_shipments.sql'), 'utf8');
    expect(sql).toContain(
      '"gadget_id" bigint NOT NULL CONSTRAINT "gadget_shipments_gadget_id_fkey" REFERENCES "gadgets"',
    );
    expect(sql).toContain(
      '"maker_id" bigint NOT NULL CONSTRAINT "gadget_shipments_maker_id_fkey" REFERENCES "gadget_makers"',
    );
    expect(
      snapshotOf(gadgetShipments, fixtureResources).columns.find((c) => c.name === 'gadget_id'),
    ).toMatchObject({ references: { table: 'gadgets', onDelete: 'RESTRICT' } });
  });

  it('deleting a record that required references still need is a 409 saying how many use it', async () => {
    const maker = (await call('POST', M, { name: 'Acme' })).json().data;
    const gadget = (await call('POST', G, { name: 'Hook', sku: 'SHIP-1', price: 1 })).json().data;
    for (let i = 1; i <= 3; i++) {
      const res = await call('POST', S, { gadget_id: gadget.id, maker_id: maker.id, quantity: i });
      expect(res.statusCode).toBe(201);
    }
    const en = await call('DELETE', `${G}/${gadget.id}`);
    expectEnvelope(en, 409);
    expect(en.json().message).toBe('This record is still used by 3 shipments');
    expect(en.json().errors.id).toBeDefined();
    const zh = await call('DELETE', `${M}/${maker.id}`, undefined, 'zh-CN');
    expectEnvelope(zh, 409);
    expect(zh.json().message).toBe('该记录仍被 3 条发货单使用');
    // Nothing was deleted.
    expect((await call('GET', `${G}/${gadget.id}`)).statusCode).toBe(200);
    expect((await call('GET', `${M}/${maker.id}`)).statusCode).toBe(200);
    // A missing referenced record is a 422 on the field, not a dangling id.
    const missing = await call('POST', S, { gadget_id: '999999', maker_id: maker.id, quantity: 1 });
    expectEnvelope(missing, 422);
    expect(Object.keys(missing.json().errors)).toEqual(['gadget_id']);
  });
});

describe('input the database cannot store is a 4xx naming the field', () => {
  it('an integer past its column range (422 in a body, 422 in a search)', async () => {
    const big = await call('POST', G, { name: 'Big', sku: 'BIG-1', price: 1, stock: 2147483648 });
    expectEnvelope(big, 422);
    expect(Object.keys(big.json().errors)).toEqual(['stock']);
    const neg = await call('POST', '/api/v1/test/gadget-parts', {
      gadget_id: '1',
      name: 'x',
      quantity: 2 ** 40,
    });
    expectEnvelope(neg, 422);
    expect(neg.json().errors.quantity).toBeDefined();
    const search = await call('GET', `${G}?search=stock:2147483648`);
    expectEnvelope(search, 422);
    expect(Object.keys(search.json().errors)).toEqual(['stock']);
    // The range the migration gave the column is the range the model knows.
    const stock = fieldsOf(fixtureResources[2]!).find((f) => f.name === 'stock')!;
    expect(stock.intRange).toEqual({ min: 0n, max: 2147483647n, column: 'integer' });
  });

  it('a NUL or a lone surrogate in any string: bodies, search values, settings, CSV cells, sign-in', async () => {
    for (const bad of ['a\u0000b', 'x\ud800', '\udc00y']) {
      const body = await call('POST', G, { name: bad, sku: 'NUL-1', price: 1 });
      expectEnvelope(body, 422);
      expect(Object.keys(body.json().errors)).toEqual(['name']);
      const nested = await call('POST', G, { name: 'ok', sku: 'NUL-2', price: 1, specs: { [bad]: 1 } });
      expectEnvelope(nested, 422);
      const settings = await call('POST', '/api/v1/settings/site', { name: bad });
      expectEnvelope(settings, 422);
      const signIn = await t.request({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { username: bad, password: ADMIN.password },
      });
      expectEnvelope(signIn, 422);
      expect(Object.keys(signIn.json().errors)).toEqual(['username']);
      const signInPassword = await t.request({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { username: ADMIN.username, password: bad },
      });
      expectEnvelope(signInPassword, 422);
    }
    // A query string cannot carry a lone surrogate (UTF-8 has none), but it can carry a NUL.
    const search = await call('GET', `${G}?search=name:a%00b`);
    expectEnvelope(search, 422);
    expect(Object.keys(search.json().errors)).toEqual(['search']);
    const boundary = '----promises-boundary';
    const csv = `sku,name,price\nCSV-1,a\u0000b,1\n`;
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="g.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const imported = await t.request({
      method: 'POST',
      url: `${G}/import?upsert=sku`,
      token: admin,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
    });
    expect(imported.statusCode).toBe(422);
    expect(Object.keys(imported.json().errors)).toEqual(['rows.2.name']);
    const { rows } = await t.db.query(`SELECT 1 FROM gadgets WHERE sku LIKE 'NUL-%' OR sku = 'CSV-1'`);
    expect(rows).toEqual([]);
  });

  it('ids above 2^63-1: 404 in a path (sub-routes too), 422 in a body, role_ids and a search', async () => {
    const over = '9223372036854775808';
    for (const url of [`${G}/${over}`, `${G}/99999999999999999999`, `${G}/abc`]) {
      expectEnvelope(await call('GET', url), 404);
      expectEnvelope(await call('PATCH', url, { name: 'x' }), 404);
      expectEnvelope(await call('DELETE', url), 404);
    }
    for (const id of [over, 'abc', '1x']) {
      expectEnvelope(await call('POST', `/api/v1/user/staff/${id}/invitation`), 404);
      expectEnvelope(await call('GET', `/api/v1/user/users/${id}/logins`), 404);
    }
    const body = await call('POST', G, { name: 'x', sku: 'ID-1', price: 1, maker_id: over });
    expectEnvelope(body, 422);
    expect(Object.keys(body.json().errors)).toEqual(['maker_id']);
    const tags = await call('POST', G, { name: 'x', sku: 'ID-2', price: 1, tag_ids: [over] });
    expectEnvelope(tags, 422);
    expect(Object.keys(tags.json().errors)[0]).toMatch(/^tag_ids/);
    const operators = await call('GET', `/api/v1/user/logs/operators?id=${over}`);
    expectEnvelope(operators, 422);
    expect(Object.keys(operators.json().errors)).toEqual(['id']);
    const avatar = await call('POST', '/api/v1/user/profile', { avatar: over });
    expectEnvelope(avatar, 422);
    expect(Object.keys(avatar.json().errors)).toEqual(['avatar']);
    for (const q of [`id:${over}`, `maker_id:${over}`, `tag_ids:${over}`]) {
      const res = await call('GET', `${G}?search=${q}`);
      expectEnvelope(res, 422);
    }
  });

  it('only columns a table really has are sortable or searchable (activity log has no updated_at)', async () => {
    expect(sortableFields(departments).has('updated_at')).toBe(true);
    for (const q of [
      'orderBy=updated_at',
      'search=updated_at:2020-01-01,2030-01-01&searchFields=updated_at:between',
    ]) {
      const res = await call('GET', `/api/v1/user/logs?${q}`);
      expectEnvelope(res, 422);
    }
    expect((await call('GET', '/api/v1/user/logs?orderBy=created_at')).statusCode).toBe(200);
  });

  it('a dictionary-backed field takes only the enabled entries of its dictionary', async () => {
    await t.db.query(`INSERT INTO dictionary_types (name, slug, data) VALUES ($1, $2, $3)`, [
      'Category',
      'gadget_category',
      JSON.stringify([
        { label: 'Kitchen', value: 'kitchen', state: true, memo: '' },
        { label: 'Retired', value: 'old', state: false, memo: '' },
      ]),
    ]);
    for (const category of ['nonsense', 'old']) {
      const res = await call('POST', G, { name: 'x', sku: `DICT-${category}`, price: 1, category });
      expectEnvelope(res, 422);
      expect(Object.keys(res.json().errors)).toEqual(['category']);
    }
    const good = await call('POST', G, { name: 'x', sku: 'DICT-ok', price: 1, category: 'kitchen' });
    expect(good.statusCode).toBe(201);
    const patched = await call('PATCH', `${G}/${good.json().data.id}`, { category: 'nonsense' });
    expectEnvelope(patched, 422);
  });
});

describe("the product's resources", () => {
  let p: TestApp;
  let token: string;
  beforeAll(async () => {
    p = await createTestApp();
    token = await p.adminToken();
  }, 180_000);
  afterAll(() => p?.close());
  const req = (method: Method, url: string, payload?: unknown) =>
    p.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('the departments CSV export completes (its bigint parent_id is not formula-escaped as text)', async () => {
    const top = await req('POST', '/api/v1/user/departments', { name: '=Sales', parent_id: '0' });
    expect(top.statusCode).toBe(201);
    await req('POST', '/api/v1/user/departments', { name: 'Sub', parent_id: top.json().data.id });
    const res = await req('GET', '/api/v1/user/departments/export');
    expect(res.statusCode).toBe(200);
    const lines = res.body.slice(1).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(res.body).toContain("'=Sales");
    expect(lines[2]).toContain(`,${top.json().data.id as string},`);
  });

  it('role_ids, department_id and parent_id above 2^63-1 are a 422 naming the field', async () => {
    const over = '9223372036854775808';
    const roles = await req('POST', '/api/v1/user/staff', { name: 'Eve', role_ids: [over] });
    expectEnvelope(roles, 422);
    expect(Object.keys(roles.json().errors)[0]).toMatch(/^role_ids/);
    const dept = await req('POST', '/api/v1/user/staff', { name: 'Eve', department_id: over });
    expectEnvelope(dept, 422);
    expect(Object.keys(dept.json().errors)).toEqual(['department_id']);
    const parent = await req('POST', '/api/v1/user/departments', { name: 'X', parent_id: over });
    expectEnvelope(parent, 422);
    expect(Object.keys(parent.json().errors)).toEqual(['parent_id']);
    expectEnvelope(await req('GET', `/api/v1/user/staff?search=role_ids:${over}`), 422);
    expectEnvelope(await req('GET', `/api/v1/user/departments?search=parent_id:${over}`), 422);
  });
});

describe("Fastify's own errors answer in the envelope", () => {
  it('414 for a path parameter over 100 characters', async () => {
    const res = await call('GET', `${G}/${'1'.repeat(101)}`);
    expectEnvelope(res, 414);
    expect(res.json().message).toBe('The request address is too long');
  });

  it('400, 413 and 415 from the body parser', async () => {
    const bad = await t.request({
      method: 'POST',
      url: G,
      token: admin,
      payload: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    expectEnvelope(bad, 415);
    const huge = await t.request({
      method: 'POST',
      url: G,
      token: admin,
      payload: JSON.stringify({ name: 'x'.repeat(t.config.bodyLimit + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(huge, 413);
  });

  it('431 for oversized headers, from the HTTP parser on a real socket, in the language asked for', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = t.app.server.address() as AddressInfo;
      const send = (headers: Record<string, string>) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              path: '/api/v1',
              headers: { ...headers, 'x-big': 'a'.repeat(64 * 1024) },
            },
            (r) => {
              let body = '';
              r.on('data', (c: Buffer) => (body += c.toString()));
              r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
            },
          );
          req.on('error', reject);
          req.end();
        });
      const byDefault = await send({});
      expect(byDefault.status).toBe(431);
      expect(JSON.parse(byDefault.body)).toEqual({ code: 431, message: '请求头过大', data: null });
      const english = await send({ 'accept-language': 'en-US,en;q=0.9' });
      expect(english.status).toBe(431);
      expect(JSON.parse(english.body)).toEqual({
        code: 431,
        message: 'The request headers are too large',
        data: null,
      });
      const chinese = await send({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' });
      expect(JSON.parse(chinese.body)).toEqual({ code: 431, message: '请求头过大', data: null });
    } finally {
      await t.app.server.close();
    }
  });
});

describe('an unexpected error is logged with the statement that failed, never its text', () => {
  it('tags database errors with the verb and table', async () => {
    const error = await t.db.query('SELECT secret_value FROM no_such_table WHERE x = $1', ['s3cr3t']).then(
      () => null,
      (e: unknown) => e,
    );
    const logged = safeError(error);
    expect(logged).toMatchObject({ sqlstate: '42P01', statement: 'SELECT no_such_table' });
    expect(JSON.stringify(logged)).not.toContain('s3cr3t');
    expect(JSON.stringify(logged)).not.toContain('secret_value');
  });
});
