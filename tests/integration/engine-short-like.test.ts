import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CursorPagination } from '../../schemas/pagination.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * Issue 14 item 3: a `like` term of 1-2 characters, which no trigram index can serve, is not counted (each
 * keystroke would scan the table): the total is the rows read up to the page, "N+" (`total_is_capped`)
 * while more follow, exact on the last page. Three characters or more are counted as before.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price) SELECT 'Item ' || i, 'S-' || i, i FROM generate_series(1, 40) AS i`,
  );
});
afterAll(() => t.close());

type Pagination = CursorPagination;

async function list(query: string): Promise<Pagination> {
  const res = await t.request({ url: `${BASE}?${query}`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { meta: { pagination: Pagination } }).meta.pagination;
}

describe('short like searches are not counted', () => {
  it('reports the rows read so far as "N+" and the exact total on the last page', async () => {
    const first = await list('q=it&size=15');
    expect(first).toMatchObject({ total: 15, count: 15, current_page: 1, total_is_capped: true });
    const second = await list(`q=it&size=15&cursor=${first.next_cursor!}`);
    expect(second).toMatchObject({ total: 30, count: 15, current_page: 2, total_is_capped: true });
    const third = await list(`q=it&size=15&cursor=${second.next_cursor!}`);
    expect(third).toMatchObject({ total: 40, count: 10, current_page: 3, next_cursor: null });
    expect(third.total_is_capped).toBeUndefined();
    // By page number too.
    expect(await list('search=name:it&searchFields=name:like&size=15&page=2')).toMatchObject({
      total: 30,
      count: 15,
      total_is_capped: true,
    });
    expect(await list('search=name:7&searchFields=name:like&size=15')).toMatchObject({ total: 4, count: 4 });
  });

  it('counts a term of three characters or more', async () => {
    const p = await list('q=ite&size=15');
    expect(p).toMatchObject({ total: 40, count: 15, total_pages: 3 });
    expect(p.total_is_capped).toBeUndefined();
  });
});
