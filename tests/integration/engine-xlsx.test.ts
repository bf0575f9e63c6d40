import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { resources as productResources } from '../../resources/index.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { hasOperation } from '../../resources/define.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { parseWallClock } from '../../schemas/timeFormat.ts';

const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  const [maker] = (
    await t.db.query<{ id: string }>(`INSERT INTO gadget_makers (name) VALUES ('Acme') RETURNING id`)
  ).rows;
  const rows = [
    {
      name: '=cmd|calc',
      sku: 'X-1',
      price: 1.5,
      stock: 2,
      color: 'green',
      state: true,
      released_on: '2026-02-03',
      launched_at: '2026-02-03T04:05:06.789Z',
      list_price: 2499,
      maker_id: maker!.id,
    },
    { name: 'Plain', sku: 'X-2', price: 2, stock: 7, color: 'blue', state: false, description: '@sum' },
    { name: '名称 三', sku: 'X-3', price: 0.1, stock: 0, color: 'red', specs: { a: 1 } },
  ];
  for (const r of rows) {
    const res = await t.request({ method: 'POST', url: BASE, token: admin, payload: r });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

async function exportXlsx(qs = '', lang = 'en') {
  const res = await t.request({
    url: `${BASE}/export?format=xlsx&orderBy=sku${qs}`,
    token: admin,
    headers: { 'accept-language': lang },
  });
  expect(res.statusCode).toBe(200);
  return res;
}

/** The workbook as exceljs reads it: the independent oracle of what a spreadsheet sees. */
async function readBook(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

/** A multipart body: an optional `mapping` part before the `file` part, as the import dialog sends them. */
function upload(file: Buffer, { qs = '', mapping }: { qs?: string; mapping?: string } = {}) {
  const boundary = '----xlsx-test-boundary';
  const parts: Buffer[] = [];
  if (mapping !== undefined)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="mapping"\r\n\r\n${mapping}\r\n`),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gadgets.xlsx"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return t.request({
    method: 'POST',
    url: `${BASE}/import${qs}`,
    token: admin,
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
  });
}

describe('XLSX export', () => {
  it('writes typed cells, formats, a frozen header and the resource label as the sheet name', async () => {
    const res = await exportXlsx(
      '&fields=sku,name,price,stock,state,color,released_on,launched_at,list_price,maker_id',
    );
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(/filename="gadgets-\d{8}-\d{6}\.xlsx"/);
    const book = await readBook(res.rawPayload);
    expect(book.worksheets).toHaveLength(1);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Gadgets');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'SKU',
      'Name',
      'Price',
      'stock',
      'Enabled',
      'Colour',
      'released_on',
      'launched_at',
      'List price',
      'maker_id',
    ]);
    const first = sheet.getRow(2);
    // Text stays text even when it looks like a formula (and keeps the CSV's escape).
    expect(first.getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(first.getCell(2).value).toBe("'=cmd|calc");
    expect(first.getCell(3).value).toBe(1.5);
    expect(first.getCell(4).value).toBe(2);
    expect(first.getCell(5).value).toBe('Yes');
    expect(first.getCell(6).value).toBe('Green');
    expect(first.getCell(7).value).toEqual(new Date('2026-02-03T00:00:00Z'));
    // The language's format (schemas/timeFormat.ts), as the CSV and the screens write it.
    expect(first.getCell(7).numFmt).toBe('mm/dd/yyyy');
    // The site's time zone (Asia/Shanghai by default) as the wall clock a date cell shows.
    expect(first.getCell(8).value).toEqual(new Date('2026-02-03T12:05:06Z'));
    expect(first.getCell(8).numFmt).toBe('mm/dd/yyyy", "hh:mm:ss');
    expect(first.getCell(9).value).toBe(24.99);
    expect(first.getCell(9).numFmt).toMatch(/#,##0\.00/);
    expect(first.getCell(10).value).toBe('Acme');
    expect(sheet.getRow(3).getCell(5).value).toBe('No');
    expect(sheet.getRow(4).getCell(3).value).toBe(0.1);
    expect(sheet.getColumn(1).width).toBeGreaterThan(0);
  });

  it('labels in the request language; format other than csv/xlsx is a 422', async () => {
    const res = await exportXlsx('&fields=sku,state', 'zh-CN');
    const sheet = (await readBook(res.rawPayload)).worksheets[0]!;
    expect(sheet.getRow(2).getCell(2).value).toBe('是');
    const bad = await t.request({ url: `${BASE}/export?format=pdf`, token: admin });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('format');
  });
});

describe('XLSX import', () => {
  it('an untouched export imports back with every row unchanged', async () => {
    const res = await exportXlsx();
    const dry = await upload(res.rawPayload, { qs: '?dry_run=1' });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toMatchObject({ total: 3, valid: 3, errors: [], unchanged: 3, created: 0 });
    const real = await upload(res.rawPayload);
    expect(real.json().data).toMatchObject({ total: 3, unchanged: 3, updated: 0, created: 0 });
  });

  it('reads an edited cell and renamed headers through a mapping', async () => {
    const book = await readBook((await exportXlsx('&fields=id,sku,price,released_on')).rawPayload);
    const sheet = book.worksheets[0]!;
    sheet.getRow(1).getCell(2).value = 'Article';
    sheet.getRow(1).getCell(3).value = 'Cost';
    sheet.getRow(1).getCell(4).value = 'Ignore me';
    sheet.getRow(3).getCell(3).value = 9.25;
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const unmapped = await upload(bytes, { qs: '?dry_run=1' });
    expect(unmapped.statusCode).toBe(422);
    const mapping = JSON.stringify({ Article: 'sku', Cost: 'price', 'Ignore me': '' });
    const dry = await upload(bytes, { qs: '?dry_run=1', mapping });
    expect(dry.json().data).toMatchObject({ total: 3, errors: [], updated: 1, unchanged: 2 });
    const real = await upload(bytes, { mapping });
    expect(real.json().data).toMatchObject({ updated: 1, unchanged: 2 });
    const { rows } = await t.db.query<{ price: number }>(`SELECT price FROM gadgets WHERE sku = 'X-2'`);
    expect(Number(rows[0]!.price)).toBe(9.25);
    const bad = await upload(bytes, { qs: '?dry_run=1', mapping: '["sku"]' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('mapping');
  });

  it('a malformed file, a zip bomb and a too long sheet are 422s, never a 5xx', async () => {
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const a = await upload(broken, { qs: '?dry_run=1' });
    expect(a.statusCode).toBe(422);
    expect(a.json().errors).toHaveProperty('file');

    // A truncated real workbook: its directory is gone.
    const good = (await exportXlsx()).rawPayload;
    const b = await upload(good.subarray(0, Math.floor(good.length / 2)), { qs: '?dry_run=1' });
    expect(b.statusCode).toBe(422);

    const c = await upload(zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(200 * 1024 * 1024, 0x20)), {
      qs: '?dry_run=1',
    });
    expect(c.statusCode).toBe(422);
    expect(c.json().message).toMatch(/unzips to more than/);

    // A directory that lies about the size is caught while inflating.
    const d = await upload(zipOf('xl/a.xml', Buffer.alloc(80 * 1024 * 1024, 0x20), 100), {
      qs: '?dry_run=1',
    });
    expect(d.statusCode).toBe(422);

    const many = new ExcelJS.Workbook();
    const sheet = many.addWorksheet('x');
    sheet.addRow(['SKU', 'Name', 'Price']);
    for (let i = 0; i < 30; i++) sheet.addRow([`M-${i}`, 'n', 1]);
    const t30 = Buffer.from(await many.xlsx.writeBuffer());
    const res = await t.request({ url: '/api/v1', token: admin });
    expect(res.statusCode).toBe(200);
    const ok = await upload(t30, { qs: '?dry_run=1' });
    expect(ok.json().data).toMatchObject({ total: 30, created: 30 });
  });
});

describe('every resource: xlsx as the CSV, typed, and back unchanged', () => {
  // The product's resources on an app of their own, the fixture's on the gadgets app.
  let product: TestApp;
  let productAdmin: string;
  beforeAll(async () => {
    product = await createTestApp();
    productAdmin = await product.adminToken();
  });
  afterAll(() => product.close());
  const both = [...productResources, ...fixtureResources].filter(
    (r) => hasOperation(r, 'export') && hasOperation(r, 'import'),
  );
  it.each(both.map((r) => [r.name, r] as const))('%s', async (_name, resource) => {
    const isProduct = productResources.includes(resource);
    const app = isProduct ? product : t;
    const token = isProduct ? productAdmin : admin;
    const url = `/api/${resource.endpoint}/export?orderBy=id`;
    const csv = await app.request({ url, token, headers: { 'accept-language': 'en' } });
    expect(csv.statusCode).toBe(200);
    const lines = parseCsv(csv.body.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
    const xlsx = await app.request({
      url: `${url}&format=xlsx`,
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(xlsx.statusCode).toBe(200);
    const sheet = (await readBook(xlsx.rawPayload)).worksheets[0]!;
    expect(sheet.actualRowCount).toBe(lines.length);
    lines.forEach((line, r) => {
      const row = sheet.getRow(r + 1);
      line.forEach((text, c) => {
        const value = row.getCell(c + 1).value;
        // The oracle: exceljs's reading of each cell against the CSV's text of the same cell.
        if (value === null || value === undefined) expect(text).toBe('');
        else if (typeof value === 'number') expect(Number(text)).toBe(value);
        else if (value instanceof Date) {
          const read = parseWallClock(text);
          const at =
            read &&
            Date.UTC(
              read.values.year,
              read.values.month - 1,
              read.values.day,
              read.values.hour,
              read.values.minute,
              read.values.second,
            );
          expect(at, text).toBe(value.getTime());
        } else expect(value).toBe(text);
      });
    });
    const dry = await app.request({
      method: 'POST',
      url: `/api/${resource.endpoint}/import?dry_run=1`,
      token,
      ...multipart(xlsx.rawPayload),
    });
    expect(dry.statusCode, dry.body).toBe(200);
    const total = lines.length - 1;
    expect(dry.json().data).toMatchObject({ total, errors: [], created: 0, updated: 0, unchanged: total });
  });
});

function multipart(file: Buffer) {
  const boundary = '----xlsx-each-boundary';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.xlsx"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
  };
}

/** A one-part zip (deflated), its directory claiming `claimed` bytes unzipped when given. */
function zipOf(name: string, content: Buffer, claimed = content.length): Buffer {
  const data = zlib.deflateRawSync(content, { level: 9 });
  const file = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(claimed, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(claimed, 24);
  central.writeUInt16LE(file.length, 28);
  central.writeUInt32LE(0, 42);
  const directoryAt = local.length + file.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}
