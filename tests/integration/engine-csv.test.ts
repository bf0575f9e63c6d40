import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../server/engine/csv/format.ts';
import { escapeFormula } from '../../server/engine/csv/formula.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';

const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;

const BOM = '\uFEFF';

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  const rows = [
    { name: '=cmd|calc', sku: 'E-1', price: 1.5, stock: 2, color: 'green', state: true },
    { name: 'Plain', sku: 'E-2', price: 2, stock: 7, color: 'blue', state: false, description: '@sum' },
    { name: '-minus', sku: 'E-3', price: 3, stock: 1, color: 'red', specs: { a: 1 } },
  ];
  for (const r of rows) await t.request({ method: 'POST', url: BASE, token: admin, payload: r });
});
afterAll(() => t.close());

/** A multipart body with one `file` part, as a browser's FormData sends it. */
function upload(csv: string, qs = '', lang = 'en', token = admin) {
  const boundary = '----engine-test-boundary';
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gadgets.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return t.request({
    method: 'POST',
    url: `${BASE}/import${qs}`,
    token,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': lang },
  });
}

const count = async () =>
  Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadgets')).rows[0]!.n);

describe('export', () => {
  it('streams CSV with BOM, labelled headers, enum/boolean labels, formula escaping, filters and sort', async () => {
    const res = await t.request({
      url: `${BASE}/export?fields=sku,name,price,state,color,description&orderBy=price&sortedBy=desc&search=price:2&searchFields=price:<=`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="gadgets-\d{8}-\d{6}\.csv"; filename\*=UTF-8''gadgets-/,
    );
    expect(res.body.startsWith(BOM)).toBe(true);
    const lines = res.body.slice(1).trim().split('\n');
    expect(lines).toEqual([
      'SKU,Name,Price,Enabled,Colour,description',
      "E-2,Plain,2,No,Blue,'@sum",
      "E-1,'=cmd|calc,1.5,Yes,Green,",
    ]);
  });

  it('labels in the request language and every readable field by default (never write-only)', async () => {
    const res = await t.request({
      url: `${BASE}/export?orderBy=sku`,
      token: admin,
      headers: { 'accept-language': 'zh-CN' },
    });
    const [header, , , third] = res.body.slice(1).trim().split('\n');
    expect(header).toContain('名称,货号');
    expect(header).not.toContain('secret');
    expect(header).not.toContain('api_key');
    expect(third).toContain("'-minus");
    expect(third).toContain('"{""a"": 1}"');
  });

  it('writes every kind of cell byte for byte as COPY does, on PGlite and PostgreSQL alike', async () => {
    const one = async (sql: string, params: unknown[] = []) =>
      (await t.db.query<{ id: string }>(sql, params)).rows.map((r) => String(r.id));
    const [maker] = await one(`INSERT INTO gadget_makers (name) VALUES ('Acme') RETURNING id`);
    const [tagA, tagB] = await one(`INSERT INTO gadget_tags (name) VALUES ('csv-a'), ('csv-b') RETURNING id`);
    expect(Number(tagA)).toBeLessThan(Number(tagB));
    const [id] = await one(
      `INSERT INTO gadgets (name, sku, description, email, homepage, price, stock, state, color, released_on,
                            launched_at, specs, maker_id, created_at, updated_at)
       VALUES ($1, 'K-1', '', '+1@x.io', 'https://x.io/?a=1,2', 0.1, 42, false, 'blue', '2026-02-03',
               '2026-02-03T04:05:06.789Z', '{"k": [1, "=x"]}', $2, '2026-01-02T03:04:05Z', '2026-01-02T03:04:05.5Z')
       RETURNING id`,
      ['Say "hi",\nthere', maker],
    );
    await t.db.query(`INSERT INTO gadgets_gadget_tags (gadget_id, tag_id) VALUES ($1, $2), ($1, $3)`, [
      id,
      tagB,
      tagA,
    ]);
    const fields =
      'id,name,sku,description,email,homepage,price,stock,state,color,released_on,launched_at,specs,category,views,maker_id,tag_ids,created_at,updated_at';
    const res = await t.request({
      url: `${BASE}/export?fields=${fields}&search=tag_ids:${tagB}`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.slice(1).split('\n').slice(1).join('\n')).toBe(
      `${id},"Say ""hi"",\nthere",K-1,"",'+1@x.io,"https://x.io/?a=1,2",0.1,42,No,Blue,02/03/2026,` +
        // Dates and times in the language's format (schemas/timeFormat.ts), to the second, in the site's
        // zone (Asia/Shanghai by default); references by their representation.
        `"02/03/2026, 12:05:06","{""k"": [1, ""=x""]}",,,Acme,"csv-a, csv-b","01/02/2026, 11:04:05",` +
        `"01/02/2026, 11:04:05"\n`,
    );
    await t.db.query(`DELETE FROM gadgets WHERE id = $1`, [id]);
  });

  it('an exported file imports back as the same values (labels and formula escapes read back)', async () => {
    const read = async () =>
      (
        await t.db.query(
          `SELECT name, sku, price, stock, state, color, description, specs FROM gadgets WHERE sku LIKE 'E-%' ORDER BY sku`,
        )
      ).rows;
    const before = await read();
    for (const lang of ['en', 'zh-CN']) {
      const exported = await t.request({
        url: `${BASE}/export?search=sku:E-1,E-2,E-3&searchFields=sku:in`,
        token: admin,
        headers: { 'accept-language': lang },
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain("'=cmd|calc");
      const res = await upload(exported.body, '?upsert=sku', lang);
      expect(res.statusCode, res.body).toBe(200);
      // Untouched rows are left alone (issue 35): no write, no updated_at bump, no audit row.
      expect(res.json().data).toMatchObject({ created: 0, updated: 0, unchanged: 3, errors: [] });
      expect(await read()).toEqual(before);
    }
  });

  it('422 for an unknown or write-only field; 403 without .export', async () => {
    const bad = await t.request({ url: `${BASE}/export?fields=name,secret`, token: admin });
    expect(bad.statusCode).toBe(422);
    const bad2 = await t.request({ url: `${BASE}/export?orderBy=secret`, token: admin });
    expect(bad2.statusCode).toBe(422);
    const reader = await staffToken(t, 'export-reader', ['test.gadgets']);
    expect((await t.request({ url: `${BASE}/export`, token: reader })).statusCode).toBe(403);
    const exporter = await staffToken(t, 'exporter', ['test.gadgets.export']);
    expect((await t.request({ url: `${BASE}/export`, token: exporter })).statusCode).toBe(200);
  });

  it('exports more rows than one cursor batch', async () => {
    await t.db.query(
      `INSERT INTO gadgets (name, sku, price) SELECT 'bulk ' || g, 'BULK-' || g, g FROM generate_series(1, 4500) g`,
    );
    const all = await t.request({
      url: `${BASE}/export?fields=sku&orderBy=price&sortedBy=asc`,
      token: admin,
    });
    const lines = all.body.slice(1).trim().split('\n');
    expect(lines.length).toBe(1 + 4503);
    await t.db.query(`DELETE FROM gadgets WHERE sku LIKE 'BULK-%'`);
  });
});

describe('formula escaping in SQL (issue 37 item 1)', () => {
  it('escapes exactly the cells escapeFormula does, whatever the first character', async () => {
    const texts = [
      ...Array.from({ length: 127 }, (_, i) => `${String.fromCharCode(i + 1)}x`),
      ...['', '=', '+', '-', '@', '\t', '\r', 'é=', '男', '😀', "'=a", ' =a', 'A', '@@'],
    ];
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO gadgets (name, sku, price, description)
       SELECT 'formula ' || n, 'F-' || n, 777.5, d FROM unnest($1::text[]) WITH ORDINALITY AS u(d, n) RETURNING id`,
      [texts],
    );
    try {
      const res = await t.request({
        url: `${BASE}/export?fields=description&search=price:777.5&searchFields=price:=&orderBy=id`,
        token: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(rows).toHaveLength(texts.length);
      const expected = texts.map((text) => csvLine([escapeFormula(text)])).join('');
      expect(res.body.slice(1).split('\n').slice(1).join('\n')).toBe(expected);
    } finally {
      await t.db.query(`DELETE FROM gadgets WHERE sku LIKE 'F-%'`);
    }
  });
});

describe('export encoding (issue 37 item 1)', () => {
  const url = `${BASE}/export?fields=sku,name,description&orderBy=sku`;
  it('a streamed CSV is gzip at level 1 for a browser, never brotli, and the same bytes inflated', async () => {
    const plain = await t.request({ url, token: admin, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    for (const acceptEncoding of ['gzip, deflate, br', 'br;q=1, gzip;q=0.5', '*']) {
      const browser = await t.request({ url, token: admin, headers: { 'accept-encoding': acceptEncoding } });
      expect(browser.statusCode).toBe(200);
      expect(browser.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(browser.headers['vary']).toMatch(/accept-encoding/i);
      expect(zlib.gunzipSync(browser.rawPayload).toString()).toBe(plain.body);
      // The gzip header's XFL byte says which level wrote it: 4 is the fastest (level 1).
      expect(browser.rawPayload[8]).toBe(4);
    }
    for (const acceptEncoding of ['br', 'br, gzip;q=0', 'deflate']) {
      const other = await t.request({ url, token: admin, headers: { 'accept-encoding': acceptEncoding } });
      expect(other.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(other.body).toBe(plain.body);
    }
  });

  it('an .xlsx is sent as it is (a zip), whatever the client accepts', async () => {
    const xlsx = await t.request({
      url: `${BASE}/export?format=xlsx`,
      token: admin,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('import', () => {
  it('dry run reports row errors by label or field name and writes nothing', async () => {
    const before = await count();
    const csv = [
      'Name,SKU,Price,Colour,Enabled,tag_ids,email',
      'Imported one,I-1,5,Green,Yes,,',
      ',I-2,x,Pink,maybe,,not-an-email',
      'Imported three,E-1,7,red,0,,',
      'Imported four,I-1,8,blue,1,,',
    ].join('\n');
    const res = await upload(csv, '?dry_run=1');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    // The dry run went through the write path and rolled back: the valid row counts as would-be created.
    expect(data).toMatchObject({ total: 4, valid: 1, dry_run: true, created: 1, updated: 0, unchanged: 0 });
    expect(data.errors).toEqual([
      {
        row: 3,
        errors: {
          name: ['Cannot be empty'],
          price: ['Must be a number'],
          color: ['Choose one of the options'],
          state: ['Must be yes or no'],
          email: ['Invalid email'],
        },
      },
      { row: 4, errors: { sku: ['This value is already taken'] } },
      { row: 5, errors: { sku: ['This value is already taken'] } },
    ]);
    expect(await count()).toBe(before);
  });

  it('a real run with a bad row writes nothing (422 naming row and field)', async () => {
    const before = await count();
    const res = await upload('name,sku,price\nGood,G-1,1\nBad,G-2,-5\n');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'rows.3.price': ['Must be at least 0'] });
    expect(await count()).toBe(before);
  });

  it('a real run is one transaction and reports created/updated, with audit rows', async () => {
    const res = await upload(`${BOM}名称,货号,价格,颜色\n"Good, one",G-1,1,绿\nGood two,G-2,2.5,blue\n`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ total: 2, valid: 2, created: 2, updated: 0, errors: [] });
    const rows = (
      await t.request({ url: `${BASE}?search=sku:G-1,G-2&searchFields=sku:in&orderBy=sku`, token: admin })
    ).json().data.data;
    expect(rows.map((r: { name: string; color: string }) => [r.name, r.color])).toEqual([
      ['Good, one', 'green'],
      ['Good two', 'blue'],
    ]);
    const audit = await t.db.query(
      `SELECT 1 FROM activity_logs WHERE action = 'gadgets.create' AND subject_id = ANY($1::text[])`,
      [rows.map((r: { id: string }) => r.id)],
    );
    expect(audit.rows.length).toBe(2);
  });

  it('upserts by a unique field', async () => {
    const res = await upload('sku,name,price\nG-1,Renamed,9\nG-3,Third,3\n', '?upsert=sku');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ created: 1, updated: 1 });
    const g1 = (await t.request({ url: `${BASE}?search=sku:G-1`, token: admin })).json().data.data[0];
    expect(g1).toMatchObject({ name: 'Renamed', price: 9, color: 'green' });
    const bad = await upload('sku,name\nG-1,x\n', '?upsert=name');
    expect(bad.statusCode).toBe(422);
  });

  it('rejects unknown columns, missing files, too many rows; needs .import', async () => {
    expect((await upload('name,wat\nx,y\n')).json().errors).toEqual({ wat: ['Unknown column'] });
    const none = await t.request({ method: 'POST', url: `${BASE}/import`, token: admin, payload: {} });
    expect(none.statusCode).toBe(422);
    const many = ['name,sku,price', ...Array.from({ length: 51 }, (_, i) => `n${i},M-${i},1`)].join('\n');
    expect((await upload(many)).statusCode).toBe(422);
    const reader = await staffToken(t, 'import-reader', ['test.gadgets', 'test.gadgets.create']);
    expect((await upload('name,sku,price\nx,Y-1,1\n', '', 'en', reader)).statusCode).toBe(403);
  });
});

describe('CSV for people, and back', () => {
  const one = async (sql: string, params: unknown[] = []) =>
    (await t.db.query<{ id: string }>(sql, params)).rows.map((r) => String(r.id));
  const state = async (skus: string[]) =>
    (
      await t.db.query(
        `SELECT g.id, g.name, g.price, g.state, g.color, g.launched_at, g.maker_id, g.specs, g.updated_at,
                (SELECT array_agg(tag_id ORDER BY tag_id) FROM gadgets_gadget_tags WHERE gadget_id = g.id) AS tags
           FROM gadgets g WHERE sku = ANY($1::text[]) ORDER BY sku`,
        [skus],
      )
    ).rows;

  const auditCount = async () =>
    Number(
      (
        await t.db.query<{ n: string }>(
          `SELECT count(*) AS n FROM activity_logs WHERE subject_type = 'gadgets'`,
        )
      ).rows[0]!.n,
    );

  it('an untouched export imports back in either language without upsert, changing nothing', async () => {
    const [maker] = await one(`INSERT INTO gadget_makers (name) VALUES ('Round maker') RETURNING id`);
    const [tagA, tagB] = await one(
      `INSERT INTO gadget_tags (name) VALUES ('round, a'), ('=round-b') RETURNING id`,
    );
    const [id] = await one(
      `INSERT INTO gadgets (name, sku, price, launched_at, maker_id)
       VALUES ('Round', 'RT-1', 3, '2026-03-01T00:00:00.123456Z', $1) RETURNING id`,
      [maker],
    );
    await t.db.query(`INSERT INTO gadgets_gadget_tags (gadget_id, tag_id) VALUES ($1, $2), ($1, $3)`, [
      id,
      tagA,
      tagB,
    ]);
    await one(`INSERT INTO gadgets (name, sku, price) VALUES ('Round two', 'RT-2', 4) RETURNING id`);
    const before = await state(['RT-1', 'RT-2']);
    for (const lang of ['en', 'zh-CN']) {
      const exported = await t.request({
        url: `${BASE}/export?search=sku:RT-1,RT-2&searchFields=sku:in&orderBy=sku`,
        token: admin,
        headers: { 'accept-language': lang },
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain(`Round maker,"round, a, '=round-b"`);
      // Written to the second in the language's format; the microseconds stay in the record (unchanged).
      expect(exported.body).toContain(lang === 'en' ? '"03/01/2026, 08:00:00"' : ',2026/03/01 08:00:00,');
      const audits = await auditCount();
      const res = await upload(exported.body, '', lang);
      expect(res.statusCode, res.body).toBe(200);
      // Rows whose values do not change are left alone and counted (issue 35): updated_at and the
      // activity log stay as they were.
      expect(res.json().data).toMatchObject({ total: 2, created: 0, updated: 0, unchanged: 2, errors: [] });
      expect(await state(['RT-1', 'RT-2'])).toEqual(before);
      expect(await auditCount()).toBe(audits);
    }
    // One changed cell: that row is updated (with its audit row), the other is still unchanged.
    const exported = await t.request({
      url: `${BASE}/export?search=sku:RT-1,RT-2&searchFields=sku:in&orderBy=sku`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    const audits = await auditCount();
    const res = await upload(exported.body.replace('Round two', 'Round 2'), '', 'en');
    expect(res.json().data).toMatchObject({ created: 0, updated: 1, unchanged: 1, errors: [] });
    expect(await auditCount()).toBe(audits + 1);
  });

  it('reads representations, labels and ids back; unknown or ambiguous names are errors of row and column', async () => {
    const [maker] = await one(`INSERT INTO gadget_makers (name) VALUES ('Named maker') RETURNING id`);
    await one(`INSERT INTO gadget_makers (name) VALUES ('Twin'), ('Twin') RETURNING id`);
    const tags = await one(`INSERT INTO gadget_tags (name) VALUES ('named-a'), ('named-b') RETURNING id`);
    const csv = [
      'Name,SKU,Price,maker_id,Tags,launched_at',
      `By name,NM-1,1,Named maker,"named-a, named-b",2026-05-06 07:08:09`,
      `By id,NM-2,1,${maker},${tags[1]},`,
    ].join('\n');
    const ok = await upload(csv);
    expect(ok.statusCode, ok.body).toBe(200);
    const rows = (
      await t.request({ url: `${BASE}?search=sku:NM-1,NM-2&searchFields=sku:in&orderBy=sku`, token: admin })
    ).json().data.data;
    expect(rows.map((r: Record<string, unknown>) => [r.maker_id, r.tag_ids, r.launched_at])).toEqual([
      [maker, tags, '2026-05-05T23:08:09.000Z'],
      [maker, [tags[1]], null],
    ]);

    const bad = ['Name,SKU,Price,maker_id,Tags', 'A,NM-3,1,Nobody,', 'B,NM-4,1,Twin,"named-a, nope"'].join(
      '\n',
    );
    const dry = await upload(bad, '?dry_run=1');
    expect(dry.json().data.errors).toEqual([
      { row: 2, errors: { maker_id: ['No Gadget maker record is named "Nobody"'] } },
      {
        row: 3,
        errors: {
          maker_id: ['More than one Gadget maker record is named "Twin"; use its ID'],
          tag_ids: ['No Gadget tag record is named "nope"'],
        },
      },
    ]);
    const real = await upload(bad, '', 'zh-CN');
    expect(real.statusCode).toBe(422);
    expect(real.json().errors).toMatchObject({ 'rows.2.maker_id': ['找不到名为“Nobody”的制造商'] });
    expect((await state(['NM-3', 'NM-4'])).length).toBe(0);
  });

  it('writes and reads times in the site time zone, which must be an IANA name', async () => {
    const site = async (body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/settings/site', token: admin, payload: body });
    expect((await site({ site_name: 'Admin', timezone: 'Mars/Olympus' })).statusCode).toBe(422);
    expect((await site({ site_name: 'Admin', timezone: '+08:00' })).statusCode).toBe(422);
    expect((await site({ site_name: 'Admin', timezone: 'America/New_York' })).statusCode).toBe(200);
    try {
      await one(
        `INSERT INTO gadgets (name, sku, price, launched_at) VALUES ('Zoned', 'TZ-1', 1, '2026-07-04T16:00:00Z') RETURNING id`,
      );
      const res = await t.request({
        url: `${BASE}/export?fields=sku,launched_at&search=sku:TZ-1`,
        token: admin,
        headers: { 'accept-language': 'en' },
      });
      expect(res.body.slice(1).trim().split('\n')[1]).toBe('TZ-1,"07/04/2026, 12:00:00"');
      const imported = await upload('sku,launched_at\nTZ-1,2026-01-04 12:00:00\n', '?upsert=sku');
      expect(imported.statusCode, imported.body).toBe(200);
      const [row] = await state(['TZ-1']);
      expect(new Date(row!.launched_at as string).toISOString()).toBe('2026-01-04T17:00:00.000Z');
    } finally {
      expect((await site({ site_name: 'Admin' })).json().data.timezone).toBe('Asia/Shanghai');
    }
  });
});
