import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExport, planExport, type CsvExport } from '../../server/engine/csv/export.ts';
import { langOf } from '../../server/engine/labels.ts';
import type { RawQuery } from '../../server/engine/list/query.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { FIXTURE_MIGRATIONS, staffToken } from '../fixtures/engine-app.ts';
import { fixtureResources, gadgets } from '../fixtures/gadgets.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * Issue 37 item 1: on PostgreSQL a big export's COPY runs in K parts on K connections sharing one snapshot
 * (csv/export.ts openPartedExport). The file must be exactly the single COPY's: for generated sorts (NULLs,
 * ties, both directions, several keys) and filters, byte for byte; rows written while the parts run appear
 * in none of them; and an export job written in parts downloads the same bytes. PGlite has one connection
 * and never parts an export, so this file runs under `npm run test:pg` only.
 */
const BASE = '/api/v1/test/gadgets';
const ROWS = 3000;
let t: TestApp;

describe.skipIf(!process.env.DATABASE_URL)('exports in parts (PostgreSQL)', () => {
  beforeAll(async () => {
    t = await createTestApp(
      { jobs: true, jobsPollSeconds: 0.5, csvJobRows: 5, csvExportParts: 3, csvExportPartRows: 1 },
      { resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS },
    );
    await t.db.query(`INSERT INTO gadget_tags (name) SELECT 'tag ' || g FROM generate_series(1, 5) g`);
    await t.db.query(
      `INSERT INTO gadgets (name, sku, price, stock, state, color, released_on, launched_at, views)
       SELECT 'g ' || (g % 37), 'S-' || g, (g % 101) / 4.0, g % 13, g % 3 = 0, (ARRAY['red','green','blue'])[1 + g % 3],
              CASE WHEN g % 5 = 0 THEN NULL ELSE date '2020-01-01' + (g % 400) END,
              CASE WHEN g % 7 = 0 THEN NULL ELSE timestamptz '2024-03-01 00:00:00+00' + (g % 500) * interval '17 minutes' END,
              CASE WHEN g % 4 = 0 THEN NULL ELSE g % 9 END
         FROM generate_series(1, $1::int) g`,
      [ROWS],
    );
    await t.db.query(
      `INSERT INTO gadgets_gadget_tags (gadget_id, tag_id)
       SELECT g.id, t.id FROM gadgets g JOIN gadget_tags t ON (g.id + t.id) % 3 = 0`,
    );
  }, 180_000);
  afterAll(() => t?.close());

  const ctx = () => ({ db: t.db, resource: gadgets, registry: fixtureResources });
  const lang = langOf('en');
  const open = async (raw: RawQuery, parts: number) => {
    const plan = await planExport(t.db, gadgets, raw, { registry: fixtureResources, principal: undefined });
    const { rows } = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM gadgets ${plan.where}`,
      plan.params,
    );
    return openExport(ctx(), lang, plan, { parts: { count: parts, total: Number(rows[0]!.n) } });
  };
  const read = async (csv: CsvExport) => {
    const chunks: Buffer[] = [];
    for await (const chunk of csv.stream) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  };

  it('writes exactly the single COPY for generated sorts and filters', async () => {
    const sortable = ['name', 'sku', 'price', 'stock', 'state', 'released_on', 'launched_at', 'views'];
    const filters = [
      {},
      { search: 'color:green', searchFields: 'color:=' },
      { search: 'price:10', searchFields: 'price:>=' },
      { search: 'name:g 1', searchFields: 'name:like' },
      { search: 'stock:3', searchFields: 'stock:<>' },
    ];
    // A seeded generator: the same cases every run.
    let seed = 37;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 14; i++) {
      const keys = [sortable[next(sortable.length)]!, sortable[next(sortable.length)]!];
      const count = 1 + next(2);
      const raw: RawQuery = {
        ...filters[i % filters.length],
        orderBy: keys.slice(0, count).join(';'),
        sortedBy: keys
          .slice(0, count)
          .map(() => (next(2) ? 'desc' : 'asc'))
          .join(';'),
      };
      const parts = 2 + (i % 3);
      const single = await read(await open(raw, 1));
      const parted = await open(raw, parts);
      expect(parted.parts, JSON.stringify(raw)).toBe(parts);
      const bytes = await read(parted);
      expect(bytes.toString('utf8').split('\n').length, JSON.stringify(raw)).toBeGreaterThan(2);
      expect(bytes.equals(single), `${JSON.stringify(raw)} in ${parts} parts`).toBe(true);
      expect(parted.rows()).toBe(bytes.toString('utf8').split('\n').length - 2);
    }
  });

  it('gives the rows of one snapshot: writes made while the parts run appear in none of them', async () => {
    const raw: RawQuery = { orderBy: 'price;name', sortedBy: 'desc;asc' };
    const before = await read(await open(raw, 1));
    const parted = await open(raw, 3);
    expect(parted.parts).toBe(3);
    const chunks: Buffer[] = [];
    const reading = (async () => {
      for await (const chunk of parted.stream) chunks.push(Buffer.from(chunk as Buffer));
    })();
    // Committed after every part has taken its snapshot (openExport has resolved): rows moved from one
    // part's range to another's, new rows in each range, rows deleted.
    await t.db.transaction(async (tx) => {
      await tx.query(`UPDATE gadgets SET price = 100 - price, name = name || ' moved' WHERE id % 2 = 0`);
      await tx.query(
        `INSERT INTO gadgets (name, sku, price) SELECT 'new ' || g, 'NEW-' || g, g FROM generate_series(1, 100) g`,
      );
      await tx.query(`DELETE FROM gadgets WHERE id % 11 = 0`);
    });
    await reading;
    expect(Buffer.concat(chunks).equals(before)).toBe(true);
    const after = await read(await open(raw, 1));
    expect(after.equals(before)).toBe(false);
  });

  it('an export job written in parts downloads the single COPY bytes', async () => {
    const exporter = await staffToken(t, 'parts-exporter', ['test.gadgets', 'test.gadgets.export']);
    const query = 'orderBy=released_on;stock&sortedBy=asc;desc&search=color:red&searchFields=color:=';
    const res = await t.request({
      url: `${BASE}/export?${query}`,
      token: exporter,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = (res.json().data as { job_id: string }).job_id;
    await eventually(
      async () => {
        const status = await t.request({ url: `${BASE}/export/${id}`, token: exporter });
        expect((status.json().data as { state: string }).state).toBe('completed');
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `export job ${id} to complete` },
    );
    const download = await t.request({
      url: `${BASE}/export/${id}/download`,
      token: exporter,
      headers: { 'accept-language': 'en' },
    });
    expect(download.statusCode).toBe(200);
    const raw = Object.fromEntries(new URLSearchParams(query)) as RawQuery;
    const plan = await planExport(t.db, gadgets, raw, {
      registry: fixtureResources,
      principal: undefined,
    });
    const expected = await read(await openExport(ctx(), lang, { ...plan, columns: plan.columns }));
    expect(download.rawPayload.equals(expected)).toBe(true);
  });
});
