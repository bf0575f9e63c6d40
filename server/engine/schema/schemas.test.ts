import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGadgetApp } from '../../../tests/fixtures/engine-app.ts';
import { gadgets } from '../../../tests/fixtures/gadgets.ts';
import type { TestApp } from '../../../tests/helpers/app.ts';
import { writeSchemas } from '../../../resources/write.ts';

describe('writeSchemas: null on update', () => {
  const { create, update } = writeSchemas(gadgets);

  it('clears optional fields without a default (nullable columns): number, date, email, reference', () => {
    const body = { released_on: null, email: null, homepage: null, maker_id: null, specs: null };
    expect(update.safeParse(body)).toMatchObject({ success: true, data: body });
  });

  it('refuses null for required fields, fields with a default (NOT NULL) and secrets', () => {
    for (const name of ['name', 'price', 'stock', 'color', 'state', 'secret', 'tag_ids']) {
      expect(update.safeParse({ [name]: null }).success, name).toBe(false);
    }
  });

  it('create takes null for a nullable column (issue 35), not for a field with a default or a required one', () => {
    const base = { name: 'N', sku: 'S', price: 1 };
    expect(create.safeParse({ ...base, released_on: null, description: null }).success).toBe(true);
    expect(create.safeParse({ ...base, stock: null }).success).toBe(false);
    expect(create.safeParse({ ...base, name: null }).success).toBe(false);
  });
});

describe('PATCH with null', () => {
  let t: TestApp;
  let token: string;
  let id: string;
  const BASE = '/api/v1/test/gadgets';

  beforeAll(async () => {
    t = await createGadgetApp();
    token = await t.adminToken();
    const maker = await t.request({
      method: 'POST',
      url: '/api/v1/test/gadget-makers',
      payload: { name: 'Acme' },
      token,
    });
    const res = await t.request({
      method: 'POST',
      url: BASE,
      token,
      payload: {
        name: 'Clearable',
        sku: 'CL-1',
        price: 5,
        stock: 4,
        released_on: '2024-01-10',
        email: 'c@example.com',
        maker_id: maker.json().data.id,
      },
    });
    expect(res.statusCode).toBe(201);
    id = res.json().data.id;
  });
  afterAll(() => t.close());

  it('stores NULL for cleared optional fields and says which field refuses it', async () => {
    const cleared = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token,
      payload: { released_on: null, email: null, maker_id: null },
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data).toMatchObject({ released_on: null, email: null, maker_id: null, stock: 4 });
    const refused = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token,
      payload: { stock: null },
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['stock']);
  });
});
