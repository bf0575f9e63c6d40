import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

const BASE = '/api/v1/dictionary/types';
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const create = (payload: Record<string, unknown>, lang = 'en') =>
  t.request({ method: 'POST', url: BASE, token: admin, payload, headers: { 'accept-language': lang } });

describe('dictionary types', () => {
  it('creates a type with its entries (state 1/0 accepted, boolean returned) and reads it back', async () => {
    const res = await create({
      name: 'Priority',
      slug: 'priority',
      data: [
        { label: 'High', value: 'high', state: 1, memo: 'urgent' },
        { label: 'Low', value: 'low', state: 0 },
      ],
    });
    expect(res.statusCode).toBe(201);
    const type = res.json().data;
    expect(type).toMatchObject({
      name: 'Priority',
      slug: 'priority',
      data: [
        { label: 'High', value: 'high', state: true, memo: 'urgent' },
        { label: 'Low', value: 'low', state: false, memo: '' },
      ],
    });
    const list = await t.request({ url: `${BASE}?search=slug:priority&searchFields=slug:=`, token: admin });
    expect(list.json().data.data).toHaveLength(1);
    expect(list.json().data.data[0].data).toHaveLength(2);
  });

  it('409 on a slug already taken', async () => {
    await create({ name: 'A', slug: 'taken' });
    const res = await create({ name: 'B', slug: 'taken' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toHaveProperty('slug');
  });

  it('422 "Dictionary data label or value cannot be empty" per entry, in both languages', async () => {
    const res = await create({
      name: 'Bad',
      slug: 'bad',
      data: [{ label: 'Fine', value: 'fine' }, { label: ' ', value: 'x' }, { label: 'No value' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'data.1.label': ['Dictionary data label or value cannot be empty'],
      'data.2.value': ['Dictionary data label or value cannot be empty'],
    });
    const zh = await create({ name: 'Bad', slug: 'bad', data: [{ label: '', value: 'x' }] }, 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(zh.json().errors['data.0.label'][0]).not.toBe('Dictionary data label or value cannot be empty');
  });

  it('refuses the same value twice in one dictionary', async () => {
    const res = await create({
      name: 'Dup',
      slug: 'dup',
      data: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'a' },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty(['data.1.value']);
  });

  it('updates the entries inline with PATCH and audits old -> new', async () => {
    const id = (await create({ name: 'Size', slug: 'size', data: [{ label: 'S', value: 's' }] })).json().data
      .id;
    const res = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: {
        data: [
          { label: 'Small', value: 's' },
          { label: 'Large', value: 'l' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data.map((e: { label: string }) => e.label)).toEqual(['Small', 'Large']);
    const { rows } = await t.db.query<{ changes: Record<string, [unknown, unknown]> }>(
      `SELECT changes FROM activity_logs WHERE action = 'dictionaries.update' AND subject_id = $1`,
      [id],
    );
    expect(rows[0]!.changes.data![0]).toEqual([{ label: 'S', value: 's', state: true, memo: '' }]);
  });

  it('needs system.settings.dictionaries (read) and .create (write)', async () => {
    const reader = await createUser(t.db, { staff: { permissions: ['system.settings.dictionaries'] } });
    expect((await t.request({ url: BASE, token: reader.token })).statusCode).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: BASE,
      token: reader.token,
      payload: { name: 'X', slug: 'x' },
    });
    expect(res.statusCode).toBe(403);
    const other = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
    expect((await t.request({ url: BASE, token: other.token })).statusCode).toBe(403);
  });
});

describe('dictionary options', () => {
  it('gives any staff member the enabled entries of one dictionary; 404 unknown, 403 non-staff', async () => {
    await create({
      name: 'Tone',
      slug: 'tone',
      data: [
        { label: 'Warm', value: 'warm' },
        { label: 'Cold', value: 'cold', state: false },
      ],
    });
    const clerk = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
    const res = await t.request({ url: '/api/v1/dictionary/options/tone', token: clerk.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ slug: 'tone', data: [{ label: 'Warm', value: 'warm' }] });
    expect((await t.request({ url: '/api/v1/dictionary/options/nope', token: clerk.token })).statusCode).toBe(
      404,
    );
    const outsider = await createUser(t.db);
    expect(
      (await t.request({ url: '/api/v1/dictionary/options/tone', token: outsider.token })).statusCode,
    ).toBe(403);
  });
});

describe('dictionary-backed fields', () => {
  it('CSV export writes the labels of enabled entries', async () => {
    const g = await createGadgetApp();
    try {
      const token = await g.adminToken();
      await g.db.query(`INSERT INTO dictionary_types (name, slug, data) VALUES ($1, $2, $3)`, [
        'Category',
        'gadget_category',
        JSON.stringify([
          { label: 'Kitchen tools', value: 'kitchen', state: true, memo: '' },
          { label: 'Retired', value: 'old', state: false, memo: '' },
        ]),
      ]);
      const created = await g.request({
        method: 'POST',
        url: '/api/v1/test/gadgets',
        token,
        payload: { name: 'Gadget D-1', sku: 'D-1', price: 1, category: 'kitchen' },
      });
      expect(created.statusCode).toBe(201);
      // The API takes only enabled entries; a value stored before its entry was disabled stays as it is.
      await g.db.query(`INSERT INTO gadgets (name, sku, price, category) VALUES ('D-2', 'D-2', 1, 'old')`);
      const res = await g.request({
        url: '/api/v1/test/gadgets/export?fields=sku,category&orderBy=sku&sortedBy=asc',
        token,
      });
      expect(res.statusCode).toBe(200);
      const lines = res.body.slice(1).trim().split('\n').slice(1);
      // A disabled entry is not offered any more; its stored value is written as it is.
      expect(lines).toEqual(['D-1,Kitchen tools', 'D-2,old']);
    } finally {
      await g.close();
    }
  });
});
