import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, ESTIMATE_FLOOR } from '../../server/engine/list/paging.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';

/**
 * Issue 37 item 4: the total of a first page. The rows are read first; a first page with fewer rows than
 * its size is the whole list, so its total is its rows (nothing counted, no estimate asked for); a full
 * first page is counted as before: the planner's estimate unfiltered on a big table or for an unselective
 * filter, a count capped at COUNT_CAP for other filters. Every branch on both databases (`npm run test:pg` runs this file too).
 */
const BASE = '/api/v1/test/gadget-makers';
let t: TestApp;
let admin: string;

interface Pagination {
  total: number;
  count: number;
  total_pages: number;
  total_is_estimate?: true;
  total_is_capped?: true;
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

async function pagination(query: string): Promise<Pagination> {
  const res = await t.request({ url: `${BASE}?${query}`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.meta.pagination as Pagination;
}

const like = (term: string) => `search=${encodeURIComponent(`name:${term}`)}&searchFields=name:like`;

describe('the total of a first page', () => {
  it('filtered: a page that holds every match reports them; a full page is counted, or estimated when unselective', async () => {
    await t.db.query(
      `INSERT INTO gadget_makers (name)
       SELECT CASE WHEN g <= 7 THEN 'rare ' ELSE 'common ' END || g FROM generate_series(1, $1::int) g`,
      [COUNT_CAP + 50],
    );
    await t.db.exec('ANALYZE gadget_makers');
    const few = await pagination(`${like('rare')}&size=10`);
    expect(few).toMatchObject({ total: 7, count: 7, total_pages: 1 });
    expect(few.total_is_capped).toBeUndefined();
    expect(few.total_is_estimate).toBeUndefined();
    // Exactly a page of matches: the extra row read tells none follows, so it is the total too.
    const exactlyAPage = await pagination(`${like('rare')}&size=7`);
    expect(exactlyAPage).toMatchObject({ total: 7, count: 7, total_pages: 1 });
    // More than a page, fewer than the cap: counted exactly.
    const counted = await pagination(`${like('common 1')}&size=10`);
    const { rows } = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM gadget_makers WHERE name LIKE 'common 1%'`,
    );
    expect(Number(rows[0]!.n)).toBeGreaterThan(10);
    expect(Number(rows[0]!.n)).toBeLessThan(COUNT_CAP);
    expect(counted).toMatchObject({ total: Number(rows[0]!.n), count: 10 });
    // Most of a big table: the planner's estimate, flagged (engine-filter-totals.test.ts has the rest).
    const estimated = await pagination(`${like('common')}&size=10`);
    expect(estimated).toMatchObject({ count: 10, total_is_estimate: true });
    expect(estimated.total).toBeGreaterThanOrEqual(COUNT_CAP);
  });

  it('unfiltered: a short first page reports its rows even where the estimate would be used', async () => {
    // The table's statistics say it is big (over ESTIMATE_FLOOR rows); then almost every row goes. Until
    // the next ANALYZE the planner still thinks it is big, but a first page that is not full is the table.
    await t.db.exec('ANALYZE gadget_makers');
    const full = await pagination('size=10');
    expect(full.total_is_estimate).toBe(true);
    expect(full.total).toBeGreaterThanOrEqual(ESTIMATE_FLOOR);
    await t.db.query(
      `DELETE FROM gadget_makers WHERE id NOT IN (SELECT id FROM gadget_makers ORDER BY id LIMIT 4)`,
    );
    const short = await pagination('size=10');
    expect(short).toMatchObject({ total: 4, count: 4, total_pages: 1 });
    expect(short.total_is_estimate).toBeUndefined();
  });
});
