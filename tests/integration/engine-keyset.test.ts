import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortableFields } from '../../resources/fields.ts';
import type { TestApp } from '../helpers/app.ts';
import type { CursorPagination } from '../../schemas/pagination.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { gadgets } from '../fixtures/gadgets.ts';

/**
 * Keyset paging (contract amendment "Totals and deep pages"), against the real API on PGlite (`npm test`) and
 * PostgreSQL (`npm run test:pg`): over generated tables full of ties and NULLs, following `next_cursor` from
 * the first page yields exactly the rows that `page=1..n` yields, and both are the list's whole order, for
 * every sortable field in both directions, two mixed-direction sorts, with and without a filter. Deep pages by
 * number are read from the other end (operations paging.ts); this compares them too. A cursor that is not
 * ours, or not this query's, is a 422 on `cursor`.
 */
const BASE = '/api/v1/test/gadgets';
const SEED = 14_02;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
}, 180_000);
afterAll(() => t.close());

type Pagination = CursorPagination;

async function list(query: string): Promise<{ ids: string[]; pagination: Pagination }> {
  const res = await t.request({ url: `${BASE}?${query}`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().data as { data: { id: string }[]; meta: { pagination: Pagination } };
  return { ids: body.data.map((r) => r.id), pagination: body.meta.pagination };
}

const row = fc.record({
  name: fc.constantFrom('a', 'b', 'B', 'c', 'Ä', ' z'),
  price: fc.constantFrom(0, 1.5, 0.1 + 0.2, 2, 1e-7),
  stock: fc.integer({ min: 0, max: 3 }),
  state: fc.boolean(),
  released_on: fc.option(fc.constantFrom('2024-01-01', '2024-02-29', '1999-12-31')),
  launched_at: fc.option(
    fc.constantFrom('2024-01-01T00:00:00.123456Z', '2024-01-01T00:00:00.123457Z', '2023-06-01T12:00:00Z'),
  ),
  views: fc.option(fc.integer({ min: -2, max: 2 })),
});

type Row = typeof row extends fc.Arbitrary<infer R> ? R : never;

/** Replaces the gadgets with these rows in one statement (so created_at/updated_at tie for all of them). */
async function seed(rows: Row[]) {
  await t.db.exec('DELETE FROM gadget_parts; DELETE FROM gadgets_gadget_tags; DELETE FROM gadgets');
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((r, i) => {
    const values = [r.name, `K-${i}`, r.price, r.stock, r.state, r.released_on, r.launched_at, r.views];
    const at = values.map((v) => `$${params.push(v)}`);
    return `(${at[0]}, ${at[1]}, ${at[2]}::float8, ${at[3]}::int, ${at[4]}::boolean, ${at[5]}::date, ${at[6]}::timestamptz, ${at[7]}::int)`;
  });
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price, stock, state, released_on, launched_at, views) VALUES ${tuples.join(', ')}`,
    params,
  );
}

const SORTS = [
  ...[...sortableFields(gadgets)].flatMap((field) => [
    `orderBy=${field}&sortedBy=asc`,
    `orderBy=${field}&sortedBy=desc`,
  ]),
  'orderBy=state;launched_at&sortedBy=asc;desc',
  'orderBy=views;price;name&sortedBy=desc;asc;desc',
  '',
];
const FILTERS = ['', 'search=stock:1,2&searchFields=stock:in', 'q=b'];

describe('keyset paging', () => {
  it('cursor pages = numbered pages = the whole order, for every sort, with ties and NULLs', async () => {
    let walks = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 30 }),
        fc.integer({ min: 2, max: 7 }),
        fc.constantFrom(...FILTERS),
        async (rows, size, filter) => {
          await seed(rows);
          for (const sort of SORTS) {
            const query = [filter, sort].filter(Boolean).join('&');
            const whole = await list(`${query}&size=1000`);
            const expected = whole.ids;
            expect(new Set(expected).size).toBe(expected.length);

            const byPage: string[] = [];
            const pages = Math.max(1, Math.ceil(whole.pagination.total / size));
            for (let page = 1; page <= pages; page++) {
              const p = await list(`${query}&size=${size}&page=${page}`);
              expect(p.pagination.current_page).toBe(page);
              expect(p.pagination.next_cursor === null).toBe(page === pages);
              byPage.push(...p.ids);
            }
            expect(byPage, `by page: ${query} size ${size}`).toEqual(expected);

            const byCursor: string[] = [];
            let next: string | null = null;
            let page = 0;
            do {
              const cursor: string = next ? `&cursor=${encodeURIComponent(next)}` : '';
              const p = await list(`${query}&size=${size}${cursor}`);
              page += 1;
              expect(p.pagination.current_page).toBe(page);
              // A 1-2 character `like` (q=b) is not counted: its total is the rows read so far (paging.ts).
              const seen = filter === 'q=b' ? Math.min(whole.pagination.total, page * size) : null;
              expect(p.pagination.total).toBe(seen ?? whole.pagination.total);
              byCursor.push(...p.ids);
              next = p.pagination.next_cursor;
            } while (next && page <= pages);
            expect(byCursor, `by cursor: ${query} size ${size}`).toEqual(expected);
            walks += 1;
          }
        },
      ),
      { seed: SEED, numRuns: 4 },
    );
    expect(walks).toBe(4 * SORTS.length);
  }, 600_000);

  it('a cursor that is not ours, or is another query’s, is a 422 on cursor and never a 5xx', async () => {
    await seed(fc.sample(row, { seed: SEED, numRuns: 12 }).map((r) => ({ ...r, views: r.views ?? 1 })));
    const first = await list('orderBy=price&sortedBy=asc&size=5');
    const cursor = first.pagination.next_cursor!;
    expect(cursor).toMatch(/^[\w-]+$/);
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { k: string[] };
    const forge = (change: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...body, ...change })).toString('base64url');
    const bad = [
      'not-a-cursor',
      '%%%',
      'x'.repeat(9000),
      forge({ k: ['not a number', body.k[1]] }),
      forge({ k: ['1', '99999999999999999999'] }),
      forge({ k: [body.k[0]] }),
      forge({ p: 0 }),
      forge({ v: 2 }),
      Buffer.from('[1,2]').toString('base64url'),
    ];
    for (const value of bad) {
      const res = await t.request({
        url: `${BASE}?orderBy=price&sortedBy=asc&size=5&cursor=${encodeURIComponent(value)}`,
        token: admin,
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode, value.slice(0, 40)).toBe(422);
      expect(res.json()).toEqual(
        expect.objectContaining({ code: 422, data: null, errors: { cursor: [expect.any(String)] } }),
      );
    }
    // The same cursor with another sort, filter or page size belongs to another query.
    for (const other of [
      'orderBy=price&sortedBy=desc&size=5',
      'orderBy=price&size=6',
      'search=stock:1&orderBy=price&size=5',
    ]) {
      const res = await t.request({ url: `${BASE}?${other}&cursor=${cursor}`, token: admin });
      expect(res.statusCode, other).toBe(422);
    }
    // A zh-CN message by default.
    const zh = await t.request({ url: `${BASE}?cursor=nope`, token: admin });
    expect(zh.json().message).toMatch(/游标/);
  });

  it('pages after the first take the total from the cursor instead of counting again', async () => {
    await seed(fc.sample(row, { seed: SEED + 1, numRuns: 9 }));
    const first = await list('orderBy=id&sortedBy=asc&size=4');
    expect(first.pagination.total).toBe(9);
    await t.db.query(
      `INSERT INTO gadgets (name, sku, price) VALUES ('late', 'LATE-1', 1), ('late', 'LATE-2', 1)`,
    );
    const second = await list(`orderBy=id&sortedBy=asc&size=4&cursor=${first.pagination.next_cursor}`);
    expect(second.pagination.total).toBe(9);
    expect(second.pagination.current_page).toBe(2);
    // The rows themselves are read fresh: the cursor walk reaches the new rows at its end.
    let next = second.pagination.next_cursor;
    const seen = [...first.ids, ...second.ids];
    while (next) {
      const p = await list(`orderBy=id&sortedBy=asc&size=4&cursor=${next}`);
      seen.push(...p.ids);
      next = p.pagination.next_cursor;
    }
    expect(seen).toHaveLength(11);
    // Asking by page number counts again.
    expect((await list('orderBy=id&sortedBy=asc&size=4&page=2')).pagination.total).toBe(11);
  });
});
