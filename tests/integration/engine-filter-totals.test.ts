import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, ESTIMATE_FLOOR } from '../../server/engine/list/paging.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';

/**
 * Issue 37 item 4, totals of filtered lists, against plain SQL (count(*) and LIMIT/OFFSET) on both databases
 * (`npm run test:pg` runs this file too):
 * - a page with fewer rows than its size (the first, or a last page by number) reports the rows up to its
 *   end, exact, and no count or estimate statement is sent for it;
 * - a filter the planner expects to match ESTIMATE_FLOOR rows or more reports the planner's estimate, flagged
 *   `total_is_estimate` as an unfiltered total is; a selective one is counted exactly (capped past COUNT_CAP);
 * - a caller whose row scope narrows the list is never given an estimate (the statistics cover rows outside
 *   the scope): its total is counted.
 * The statements a request sends are observed on the database handle the app queries through (a spy that
 * calls through: nothing is replaced).
 */
const BASE = '/api/v1/test/gadget-makers';
const ROWS = 40_000;
let t: TestApp;
let admin: string;
let sent: string[] = [];
let restore: () => void = () => {};

interface Pagination {
  total: number;
  count: number;
  total_pages: number;
  total_is_estimate?: true;
  total_is_capped?: true;
  next_cursor: string | null;
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  // 30% 'common', 1% 'rare', the rest 'plain', and five 'unique' rows; numbered so that prefixes select.
  await t.db.query(
    `INSERT INTO gadget_makers (name)
     SELECT CASE WHEN g % 100 < 30 THEN 'common ' WHEN g % 100 = 30 THEN 'rare ' ELSE 'plain ' END || g
       FROM generate_series(1, $1::int) g`,
    [ROWS],
  );
  await t.db.query(`INSERT INTO gadget_makers (name) SELECT 'unique ' || g FROM generate_series(1, 5) g`);
  await t.db.exec('ANALYZE gadget_makers');
  const db = t.db as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const query = db.query;
  db.query = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'string') sent.push(args[0]);
    return query.apply(this, args);
  };
  restore = () => {
    db.query = query;
  };
});
afterEach(() => {
  sent = [];
});
afterAll(async () => {
  restore();
  await t?.close();
});

const like = (term: string) => `search=${encodeURIComponent(`name:${term}`)}&searchFields=name:like`;
const hasTrash = async () =>
  (
    await t.db.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'gadget_makers' AND column_name = 'deleted_at'`,
    )
  ).rows.length > 0;

/** The plain SQL answer: how many rows match `term`, and the ids of page `page`. */
async function oracle(term: string, page: number, size: number): Promise<{ n: number; ids: string[] }> {
  const where = `WHERE name ILIKE $1${(await hasTrash()) ? ' AND deleted_at IS NULL' : ''}`;
  const pattern = `%${term}%`;
  const { rows: c } = await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM gadget_makers ${where}`, [
    pattern,
  ]);
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT id::text AS id FROM gadget_makers ${where} ORDER BY gadget_makers.id DESC LIMIT ${size} OFFSET ${(page - 1) * size}`,
    [pattern],
  );
  return { n: Number(c[0]!.n), ids: rows.map((r) => r.id) };
}

async function list(query: string, token = admin): Promise<{ ids: string[]; p: Pagination }> {
  sent = [];
  const res = await t.request({ url: `${BASE}?${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().data as { data: { id: string }[]; meta: { pagination: Pagination } };
  return { ids: body.data.map((r) => r.id), p: body.meta.pagination };
}

/** Statements of the last request that count rows or ask the planner for an estimate. */
const counting = () => sent.filter((s) => /count\(\*\)|^\s*EXPLAIN/i.test(s));

describe('totals of filtered lists', () => {
  it('a short page (first or last by number) reports its rows up to its end and counts nothing', async () => {
    const few = await list(`${like('unique')}&size=10`);
    expect(few.p).toMatchObject({ total: 5, count: 5 });
    expect(counting()).toEqual([]);
    const rare = await oracle('rare', 1, 1);
    const size = 30;
    const last = Math.ceil(rare.n / size);
    expect(rare.n % size).not.toBe(0);
    const lastPage = await list(`${like('rare')}&size=${size}&page=${last}`);
    expect(lastPage.p).toMatchObject({ total: rare.n, count: rare.n % size });
    expect(lastPage.p.total_is_estimate).toBeUndefined();
    expect(counting()).toEqual([]);
    // A full page past the first leaves the total open: counted (exactly, a selective filter).
    const middle = await list(`${like('rare')}&size=${size}&page=2`);
    expect(middle.p).toMatchObject({ total: rare.n, count: size });
    expect(counting().length).toBeGreaterThan(0);
  });

  it('an unselective filter reports the planner estimate, flagged; a selective one counts exactly', async () => {
    const common = await oracle('common', 1, 10);
    expect(common.n).toBeGreaterThan(ESTIMATE_FLOOR);
    const estimated = await list(`${like('common')}&size=10`);
    expect(estimated.ids).toEqual(common.ids);
    expect(estimated.p.total_is_estimate).toBe(true);
    expect(estimated.p.total_is_capped).toBeUndefined();
    expect(estimated.p.total).toBeGreaterThan(common.n / 2);
    expect(estimated.p.total).toBeLessThan(common.n * 2);
    // The statement sent instead of the count: the planner's estimate only.
    expect(counting()).toEqual([expect.stringMatching(/^EXPLAIN/)]);
    // Two conditions the planner takes for independent (30% x 30%) though they match the same rows: it
    // expects fewer than the floor, so the list counts, and stops at the cap.
    const correlated = await list(`q=common&${like('ommo')}&size=10`);
    expect(correlated.p).toMatchObject({ total: COUNT_CAP, total_is_capped: true });
    expect(correlated.p.total_is_estimate).toBeUndefined();
    const rare = await oracle('rare', 1, 10);
    const exact = await list(`${like('rare')}&size=10`);
    expect(exact.p).toMatchObject({ total: rare.n, count: 10 });
    expect(exact.p.total_is_estimate).toBeUndefined();
  });

  it('generated: every page is the OFFSET page; totals are exact where promised, else flagged', async () => {
    const terms = ['common', 'common 1', 'common 12', 'rare', 'rare 3', 'plain', 'plain 77', 'unique', 'zzz'];
    let estimates = 0;
    let skipped = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...terms),
        fc.constantFrom(10, 25, 100),
        fc.nat(60),
        async (term, size, far) => {
          const { n } = await oracle(term, 1, 1);
          const pages = Math.max(1, Math.ceil(n / size));
          // Pages within the count cap (read from the start), the last page among them when it lies there.
          const page = Math.min(1 + (far % (pages + 1)), Math.floor(COUNT_CAP / size));
          const want = await oracle(term, page, size);
          const got = await list(`${like(term)}&size=${size}&page=${page}`);
          expect(got.ids, `${term} size ${size} page ${page}`).toEqual(want.ids);
          if (got.ids.length > 0 && got.ids.length < size) {
            // The page tells the total: exact, and nothing counted.
            expect(got.p.total).toBe(n);
            expect(got.p.total_is_estimate).toBeUndefined();
            expect(counting()).toEqual([]);
            skipped += 1;
          } else if (got.p.total_is_estimate) {
            estimates += 1;
            expect(got.p.total).toBeGreaterThanOrEqual(ESTIMATE_FLOOR);
            expect(got.p.total).toBeGreaterThan(n / 2);
            expect(got.p.total).toBeLessThan(n * 2);
          } else if (got.p.total_is_capped) {
            expect(n).toBeGreaterThan(COUNT_CAP);
            expect(got.p.total).toBe(COUNT_CAP);
          } else {
            expect(got.p.total).toBe(n);
          }
        },
      ),
      { seed: 37_04, numRuns: 40 },
    );
    expect(estimates).toBeGreaterThan(0);
    expect(skipped).toBeGreaterThan(0);
  });

  it('a caller whose row scope narrows the list is counted, never estimated', async () => {
    const token = await staffToken(t, 'counts-self', ['test.gadgets']);
    await t.db.query(`UPDATE roles SET data_scope = 'self' WHERE name = 'role-counts-self'`);
    const { rows: me } = await t.db.query<{ id: string }>(
      `SELECT id FROM users WHERE username = 'counts-self'`,
    );
    const { rows: other } = await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    // Many 'common' gadgets made by someone else, a few by the caller: the statistics see them all.
    await t.db.query(
      `INSERT INTO gadgets (name, sku, price, created_by)
       SELECT 'common gadget ' || g, 'sku-' || g, 1, CASE WHEN g <= 30 THEN $2::bigint ELSE $1::bigint END
         FROM generate_series(1, $3::int) g`,
      [other[0]!.id, me[0]!.id, ESTIMATE_FLOOR * 2],
    );
    await t.db.exec('ANALYZE gadgets');
    const url = `/api/v1/test/gadgets?${like('common')}&size=10`;
    const get = async (tok: string) => {
      const res = await t.request({ url, token: tok });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.meta.pagination as Pagination;
    };
    const unscoped = await get(admin);
    expect(unscoped.total_is_estimate).toBe(true);
    const scoped = await get(token);
    expect(scoped).toMatchObject({ total: 30, count: 10 });
    expect(scoped.total_is_estimate).toBeUndefined();
  });
});
