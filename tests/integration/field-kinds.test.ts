import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import type { TestApp } from '../helpers/app.ts';
import { TINY_PNG, multipartFile, uploadAsset } from '../helpers/upload.ts';

/**
 * Issue 15 item 3 through the API: `money()` keeps minor units and travels in CSV in major units (exact both
 * ways), `image()` / `file()` hold uploaded assets' ids, `input: 'markdown'` is a long text.
 */
let t: TestApp;
let admin: string;
let makerId: string;
const BASE = '/api/v1/test/gadgets';

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  const maker = await t.request({
    method: 'POST',
    url: '/api/v1/test/gadget-makers',
    token: admin,
    payload: { name: 'M' },
  });
  makerId = maker.json().data.id;
  // Building the app takes long on a loaded 2-core machine.
}, 180_000);
afterAll(() => t.close());

const importCsv = (csv: string, qs = '') =>
  t.request({
    method: 'POST',
    url: `${BASE}/import${qs}`,
    token: admin,
    ...multipartFile('gadgets.csv', Buffer.from(csv), 'text/csv'),
    headers: { ...multipartFile('x', Buffer.alloc(0)).headers, 'accept-language': 'en' },
  });

describe('money, image, file and markdown fields', () => {
  it('stores minor units with uploaded assets, exports major units and reads them back exactly', async () => {
    const photo = await uploadAsset(t, admin, 'photo.png', TINY_PNG, 'image/png');
    const manual = await uploadAsset(t, admin, 'manual.txt', Buffer.from('read me'), 'text/plain');
    const created = await t.request({
      method: 'POST',
      url: BASE,
      token: admin,
      payload: {
        name: 'Priced',
        sku: 'MONEY-1',
        price: 1,
        maker_id: makerId,
        list_price: 2499,
        photo_id: photo,
        manual_id: manual,
        notes: '# Title\n\n- **bold** item',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ list_price: 2499, photo_id: photo, manual_id: manual });

    const csv = await t.request({
      url: `${BASE}/export?fields=sku,list_price,photo_id&search=sku:MONEY-1`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(csv.statusCode).toBe(200);
    expect(
      csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/),
    ).toEqual(['SKU,List price,Photo', `MONEY-1,24.99,${photo}`]);

    // The exported file imports back to the same integers; other spellings of an amount are read too.
    const again = await importCsv(`sku,list_price\nMONEY-1,24.99\n`, '?upsert=sku');
    expect(again.statusCode, again.body).toBe(200);
    const others = await importCsv(
      `sku,name,price,maker_id,List price\nMONEY-2,A,1,${makerId},"¥1,234.5"\nMONEY-3,B,1,${makerId},-0\n`,
    );
    expect(others.statusCode, others.body).toBe(200);
    const { rows } = await t.db.query<{ sku: string; list_price: number }>(
      `SELECT sku, list_price FROM gadgets WHERE sku LIKE 'MONEY-%' ORDER BY sku`,
    );
    expect(rows.map((r) => [r.sku, Number(r.list_price)])).toEqual([
      ['MONEY-1', 2499],
      ['MONEY-2', 123450],
      ['MONEY-3', 0],
    ]);
  });

  it('refuses an amount with more than two decimals, a negative one and an unknown asset, naming the field', async () => {
    const dry = await importCsv(
      `sku,name,price,maker_id,list_price\nMONEY-9,A,1,${makerId},1.234\nMONEY-8,B,1,${makerId},-5\n`,
      '?dry_run=1',
    );
    expect(dry.statusCode, dry.body).toBe(200);
    const errors = dry.json().data.errors as { row: number; errors: Record<string, string[]> }[];
    expect(errors.map((e) => [e.row, Object.keys(e.errors)])).toEqual([
      [2, ['list_price']],
      [3, ['list_price']],
    ]);
    const missing = await t.request({
      method: 'POST',
      url: BASE,
      token: admin,
      payload: { name: 'X', sku: 'MONEY-X', price: 1, maker_id: makerId, photo_id: '999999' },
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['photo_id']);
  });
});
