import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, staffToken, userToken } from '../fixtures/engine-app.ts';

const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let makerId: string;
let tagIds: string[];

const post = (url: string, payload: unknown, token = admin, lang = 'en') =>
  t.request({ method: 'POST', url, payload: payload as object, token, headers: { 'accept-language': lang } });
const get = (url: string, token = admin, lang = 'en') =>
  t.request({ url, token, headers: { 'accept-language': lang } });

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  makerId = (await post('/api/v1/test/gadget-makers', { name: 'Acme' })).json().data.id;
  tagIds = [];
  for (const name of ['new', 'hot', 'sale'])
    tagIds.push((await post('/api/v1/test/gadget-tags', { name })).json().data.id);
  const rows = [
    {
      name: 'Alpha phone',
      sku: 'A-1',
      price: 10,
      stock: 5,
      color: 'red',
      released_on: '2024-01-10',
      maker_id: makerId,
      tag_ids: [tagIds[0]],
    },
    {
      name: 'Beta 100%_real',
      sku: 'B-2',
      price: 20.5,
      stock: 0,
      state: 0,
      color: 'green',
      released_on: '2024-06-01',
      tag_ids: [tagIds[0], tagIds[1]],
    },
    {
      name: 'Gamma',
      sku: 'C-3',
      price: 30,
      stock: 12,
      color: 'blue',
      released_on: '2025-02-01',
      maker_id: makerId,
    },
    { name: 'delta phone', sku: 'D-4', price: 40, stock: 3, state: false, email: 'd@example.com' },
  ];
  for (const r of rows) expect((await post(BASE, r)).statusCode).toBe(201);
});
afterAll(() => t.close());

const names = (res: { json(): { data: { data: { name: string }[] } } }) =>
  res.json().data.data.map((r) => r.name);
const list = (qs: string) => get(`${BASE}?${qs}`);

describe('list query', () => {
  it.each([
    [
      'like (case-insensitive contains)',
      'search=name:PHONE&searchFields=name:like&orderBy=name',
      ['Alpha phone', 'delta phone'],
    ],
    ['like escapes % and _', 'search=name:0%_&searchFields=name:like', ['Beta 100%_real']],
    [
      'like with a literal % finds nothing extra',
      'search=name:%25&searchFields=name:like',
      ['Beta 100%_real'],
    ],
    ['=', 'search=sku:C-3', ['Gamma']],
    ['in', 'search=sku:A-1,D-4&searchFields=sku:in&orderBy=sku', ['Alpha phone', 'delta phone']],
    [
      'between (inclusive)',
      'search=price:20.5,30&searchFields=price:between&orderBy=price',
      ['Beta 100%_real', 'Gamma'],
    ],
    ['>=', 'search=stock:5&searchFields=stock:>=&orderBy=stock', ['Alpha phone', 'Gamma']],
    ['<=', 'search=stock:3&searchFields=stock:<=&orderBy=stock', ['Beta 100%_real', 'delta phone']],
    ['<>', 'search=stock:0&searchFields=stock:<>&orderBy=stock', ['delta phone', 'Alpha phone', 'Gamma']],
    ['boolean 0', 'search=state:0&orderBy=name', ['Beta 100%_real', 'delta phone']],
    ['enum in', 'search=color:green,blue&searchFields=color:in&orderBy=sku', ['Beta 100%_real', 'Gamma']],
    [
      'date between',
      'search=released_on:2024-01-01,2024-12-31&orderBy=released_on',
      ['Alpha phone', 'Beta 100%_real'],
    ],
    ['belongsTo =', `search=maker_id:${'MAKER'}&orderBy=name`, ['Alpha phone', 'Gamma']],
    ['manyToMany in', `search=tag_ids:${'TAG1'}&searchFields=tag_ids:in&orderBy=name`, ['Beta 100%_real']],
    ['searchJoin and', 'search=name:phone;state:1&searchFields=name:like;state:=', ['Alpha phone']],
    ['searchJoin or', 'search=sku:A-1;color:blue&searchJoin=or&orderBy=name', ['Alpha phone', 'Gamma']],
    [
      'orderBy several fields',
      'orderBy=state;price&sortedBy=asc;desc',
      ['delta phone', 'Beta 100%_real', 'Gamma', 'Alpha phone'],
    ],
  ])('%s', async (_, qs, expected) => {
    const res = await list(qs.replace('MAKER', makerId).replace('TAG1', tagIds[1]!));
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res)).toEqual(expected);
  });

  it('answers the contract pagination meta', async () => {
    const res = await list('page=2&size=3&orderBy=sku');
    expect(res.json()).toEqual({
      code: 200,
      data: {
        data: [expect.objectContaining({ name: 'delta phone' })],
        meta: {
          pagination: { total: 4, count: 1, per_page: 3, current_page: 2, total_pages: 2, next_cursor: null },
        },
      },
    });
  });

  it('embeds belongsTo, manyToMany and hasMany with include', async () => {
    const alpha = (await list('search=sku:A-1')).json().data.data[0];
    await post('/api/v1/test/gadget-parts', { gadget_id: alpha.id, name: 'Screen' });
    const res = await list('search=sku:A-1&include=maker,tags,parts');
    const record = res.json().data.data[0];
    expect(record.maker).toMatchObject({ id: makerId, name: 'Acme' });
    expect(record.tags).toEqual([expect.objectContaining({ id: tagIds[0], name: 'new' })]);
    expect(record.parts).toEqual([
      expect.objectContaining({ name: 'Screen', quantity: 1, gadget_id: alpha.id }),
    ]);
    const one = await get(`${BASE}/${alpha.id}?include=maker`);
    expect(one.json().data.maker.name).toBe('Acme');
  });

  it.each([
    ['unknown search field', 'search=nope:1', 'Field "nope" cannot be searched', 'nope'],
    [
      'a declared but unsearchable field',
      'search=homepage:x',
      'Field "homepage" cannot be searched',
      'homepage',
    ],
    [
      'SQL in a field name',
      `search=${encodeURIComponent('name"=name OR 1=1 --')}:x`,
      'cannot be searched',
      'name"=name OR 1=1 --',
    ],
    ['unknown sort field', 'orderBy=description', 'Field "description" cannot be sorted', 'description'],
    [
      'SQL in orderBy',
      `orderBy=${encodeURIComponent('name desc, (select 1)')}`,
      'cannot be sorted',
      'name desc, (select 1)',
    ],
    ['a condition not declared', 'search=name:x&searchFields=name:between', 'does not accept', 'name'],
    ['a non-numeric int', `search=stock:${encodeURIComponent('1 OR 1=1')}`, 'not valid', 'stock'],
    ['size over 1000', 'size=1001', 'from 1 to 1000', 'size'],
    ['unknown include', 'include=owner', 'cannot be included', 'owner'],
  ])('422 for %s, naming the field', async (_, qs, message, field) => {
    const res = await list(qs);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain(message);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it('keeps SQL in a value a value', async () => {
    const res = await list(`search=${encodeURIComponent("name:x' OR '1'='1")}&searchFields=name:=`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data).toEqual([]);
  });

  it('localizes the 422 message', async () => {
    const res = await get(`${BASE}?orderBy=nope`, admin, 'zh-CN');
    expect(res.json().message).toBe('字段“nope”不可排序');
  });
});

describe('create, read, update, delete', () => {
  let id: string;

  it('creates (201, the new record, write-only fields absent, hashed at rest)', async () => {
    const res = await post(BASE, {
      name: 'Omega',
      sku: 'O-1',
      price: 12,
      state: 1,
      specs: { weight: 3 },
      secret: 'hunter2hunter2',
      api_key: 'k-123',
      tag_ids: [tagIds[2]],
      launched_at: '2025-03-01T10:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    id = data.id;
    expect(data).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      name: 'Omega',
      state: true,
      stock: 0,
      color: 'red',
      specs: { weight: 3 },
      tag_ids: [tagIds[2]],
      maker_id: null,
    });
    expect(data.launched_at).toBe('2025-03-01T10:00:00.000Z');
    expect(data.created_at).toMatch(/Z$/);
    expect(data).not.toHaveProperty('secret');
    expect(data).not.toHaveProperty('api_key');
    const { rows } = await t.db.query<{ secret: string }>('SELECT secret FROM gadgets WHERE id = $1', [id]);
    expect(rows[0]!.secret).toMatch(/^\$argon2id\$/);
  });

  it('reads one; 404 when missing or not an id', async () => {
    expect((await get(`${BASE}/${id}`)).json().data).toMatchObject({ id, name: 'Omega' });
    expect((await get(`${BASE}/999999`)).statusCode).toBe(404);
    expect((await get(`${BASE}/abc`)).statusCode).toBe(404);
  });

  it('422 with per-field messages in the request language', async () => {
    const res = await post(BASE, { sku: '', price: 'x', email: 'nope', homepage: 'nope', color: 'pink' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      name: ['Cannot be empty'],
      sku: ['Cannot be empty'],
      email: ['Invalid email'],
      homepage: ['Invalid url'],
      color: ['Choose one of the options'],
    });
    const zh = await post(BASE, { sku: 'Z' }, admin, 'zh-CN');
    expect(Object.keys(zh.json().errors)).toEqual(expect.arrayContaining(['name', 'price']));
  });

  it('rejects unknown and read-only fields (no mass assignment)', async () => {
    const res = await post(BASE, { name: 'X', sku: 'X-1', price: 1, is_admin: 1, views: 100 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['is_admin', 'views']);
    expect((await list('search=sku:X-1')).json().data.data).toEqual([]);
  });

  it('409 naming the field for a taken unique value', async () => {
    const res = await post(BASE, { name: 'Dup', sku: 'A-1', price: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('SKU');
    expect(res.json().errors).toHaveProperty('sku');
  });

  it('422 on the field for a missing referenced record', async () => {
    const res = await post(BASE, { name: 'Orphan', sku: 'OR-1', price: 1, maker_id: '999999' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('maker_id');
    const tags = await post(BASE, { name: 'Orphan', sku: 'OR-2', price: 1, tag_ids: ['999999'] });
    expect(tags.statusCode).toBe(422);
    expect(tags.json().errors).toHaveProperty('tag_ids');
  });

  it('PATCH validates only the given fields and keeps the rest', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: { price: 99, state: '0', id, created_at: 'x' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Omega',
      price: 99,
      state: false,
      stock: 0,
      color: 'red',
      tag_ids: [tagIds[2]],
    });
    const bad = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: { name: '' },
      headers: { 'accept-language': 'en' },
    });
    expect(bad.json().errors).toEqual({ name: ['Cannot be empty'] });
    const dup = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: { sku: 'B-2' },
    });
    expect(dup.statusCode).toBe(409);
    const missing = await t.request({
      method: 'PATCH',
      url: `${BASE}/999999`,
      token: admin,
      payload: { price: 1 },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('writes an audit row per create, update and delete with secrets masked', async () => {
    await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: { secret: 'another-secret', name: 'Omega 2' },
      headers: { 'user-agent': 'vitest-agent' },
    });
    const del = await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: admin });
    expect(del.json()).toEqual({ code: 200, data: null });
    expect((await get(`${BASE}/${id}`)).statusCode).toBe(404);
    const { rows } = await t.db.query<{
      action: string;
      operator_id: string;
      subject_type: string;
      changes: Record<string, unknown>;
      user_agent: string;
      ip: string;
    }>(
      `SELECT action, operator_id, subject_type, changes, user_agent, ip FROM activity_logs WHERE subject_id = $1 AND subject_type = 'gadgets' ORDER BY id`,
      [id],
    );
    expect(rows.map((r) => r.action)).toEqual([
      'gadgets.create',
      'gadgets.update',
      'gadgets.update',
      'gadgets.delete',
    ]);
    expect(rows[0]!.changes).toMatchObject({
      name: [null, 'Omega'],
      secret: [null, '******'],
      api_key: [null, '******'],
    });
    // Every update also records the version it wrote (history, issue 36).
    expect(rows[1]!.changes).toEqual({ price: [12, 99], state: [true, false], version: [1, 2] });
    expect(rows[2]!.changes).toEqual({
      name: ['Omega', 'Omega 2'],
      secret: ['******', '******'],
      version: [2, 3],
    });
    expect(rows[2]!.user_agent).toBe('vitest-agent');
    expect(rows[3]!.changes).toMatchObject({ name: ['Omega 2', null] });
    expect(JSON.stringify(rows)).not.toContain('another-secret');
    expect(rows[0]!.ip).toBeTruthy();
    const { rows: admins } = await t.db.query<{ id: string }>(
      `SELECT id FROM users WHERE username = 'admin'`,
    );
    expect(rows.every((r) => String(r.operator_id) === admins[0]!.id)).toBe(true);
  });

  it('409 when deleting a record others still need', async () => {
    const alpha = (await list('search=sku:A-1')).json().data.data[0];
    const maker = await post('/api/v1/test/gadget-makers', { name: 'Keep' });
    const mk = maker.json().data.id;
    await post('/api/v1/test/gadget-parts', { gadget_id: alpha.id, name: 'Battery' });
    // parts cascade with their gadget; a maker is only set null
    const res = await t.request({ method: 'DELETE', url: `/api/v1/test/gadget-makers/${mk}`, token: admin });
    expect(res.statusCode).toBe(200);
  });
});

describe('permissions', () => {
  it('401 without a token, 403 without staff or the permission', async () => {
    expect((await t.request({ url: BASE })).statusCode).toBe(401);
    const plain = await userToken(t, 'plain');
    expect((await get(BASE, plain)).statusCode).toBe(403);
  });

  it('reading needs <permission>, each action its own name', async () => {
    const reader = await staffToken(t, 'reader', ['test.gadgets']);
    expect((await get(BASE, reader)).statusCode).toBe(200);
    expect((await post(BASE, { name: 'N', sku: 'N-1', price: 1 }, reader)).statusCode).toBe(403);
    expect((await get(`${BASE}/export`, reader)).statusCode).toBe(403);
    const id = (await list('search=sku:A-1')).json().data.data[0].id;
    expect(
      (await t.request({ method: 'PATCH', url: `${BASE}/${id}`, token: reader, payload: { price: 1 } }))
        .statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: reader })).statusCode).toBe(403);

    const creator = await staffToken(t, 'creator', ['test.gadgets.create']);
    expect((await get(BASE, creator)).statusCode).toBe(403);
    expect((await post(BASE, { name: 'N', sku: 'N-1', price: 1 }, creator)).statusCode).toBe(201);
  });
});

describe('OpenAPI', () => {
  it('documents every resource route with its schemas', async () => {
    const doc = (await t.request({ url: '/api/docs' })).json();
    const paths = doc.paths as Record<string, Record<string, { requestBody?: unknown; tags?: string[] }>>;
    expect(Object.keys(paths[BASE] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(Object.keys(paths[`${BASE}/{id}`] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(paths[`${BASE}/export`]?.get).toBeTruthy();
    expect(paths[`${BASE}/import`]?.post).toBeTruthy();
    // The body is the resource's named create schema (issue 33).
    expect(JSON.stringify(paths[BASE]!.post!.requestBody)).toContain('"#/components/schemas/GadgetsCreate"');
    const body = JSON.stringify(doc.components.schemas.GadgetsCreate);
    expect(body).toContain('"sku"');
    expect(body).toContain('"secret"');
    expect(body).not.toContain('"views"');
  });

  it('documents the bulk calls, escapes in search values and q', async () => {
    const doc = (await t.request({ url: '/api/docs' })).json();
    const base = doc.paths[BASE] as Record<string, { parameters?: { name: string }[]; responses: object }>;
    for (const method of ['patch', 'delete']) {
      expect(base[method]!.parameters?.map((p) => p.name)).toContain('ids');
      expect(JSON.stringify(base[method]!.responses)).toContain('"ids"');
    }
    expect(JSON.stringify(base.patch)).toContain('all or nothing');
    const list = JSON.stringify(base.get!.parameters);
    expect(list).toContain('\\\\;');
    expect(list).toContain('"q"');
    expect(list).toContain('name, description, email');
  });
});
