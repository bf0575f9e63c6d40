import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, ESTIMATE_FLOOR } from '../../server/engine/list/paging.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';

/**
 * Totals that do not scan (gadget_makers in the fixture): the planner's row estimate for unfiltered lists of a
 * big table and for filters it expects to match ESTIMATE_FLOOR rows or more, a count stopped at COUNT_CAP
 * for other filtered ones (`total_is_capped`).
 */
const BASE = '/api/v1/test/gadget-makers';
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const pagination = async (query: string) => {
  const res = await t.request({ url: `${BASE}?${query}`, token: admin });
  expect(res.statusCode).toBe(200);
  return res.json().data.meta.pagination as {
    total: number;
    total_pages: number;
    total_is_estimate?: true;
    total_is_capped?: true;
  };
};

describe('estimatedTotal', () => {
  it('counts exactly while the table is small or never analyzed', async () => {
    await t.db.query(`INSERT INTO gadget_makers (name) SELECT 'small ' || g FROM generate_series(1, 30) g`);
    expect(await pagination('size=10')).toEqual(expect.objectContaining({ total: 30, total_pages: 3 }));
    await t.db.exec('ANALYZE gadget_makers');
    const exact = await pagination('size=10');
    expect(exact.total).toBe(30);
    expect(exact.total_is_estimate).toBeUndefined();
  });

  it('reports the row estimate, flagged, for an unfiltered list of a big table; filters count exactly', async () => {
    const rows = ESTIMATE_FLOOR * 2;
    await t.db.query(
      `INSERT INTO gadget_makers (name) SELECT 'big ' || g FROM generate_series(1, $1::int) g`,
      [rows],
    );
    await t.db.exec('ANALYZE gadget_makers');
    const estimated = await pagination('size=100');
    expect(estimated.total_is_estimate).toBe(true);
    expect(Math.abs(estimated.total - (rows + 30))).toBeLessThan((rows + 30) * 0.1);
    expect(estimated.total_pages).toBe(Math.ceil(estimated.total / 100));
    const filtered = await pagination(
      `search=${encodeURIComponent('name:small')}&searchFields=name:like&size=10`,
    );
    expect(filtered).toEqual(expect.objectContaining({ total: 30 }));
    expect(filtered.total_is_estimate).toBeUndefined();
  });

  it('a filter the planner expects to match the floor or more reports its estimate; below, it counts exactly', async () => {
    // ESTIMATE_FLOOR * 2 'big' rows exist from the test above: more than the floor match 'big'.
    const estimated = await pagination(
      `search=${encodeURIComponent('name:big')}&searchFields=name:like&size=100`,
    );
    expect(estimated.total_is_estimate).toBe(true);
    expect(estimated.total_is_capped).toBeUndefined();
    expect(Math.abs(estimated.total - ESTIMATE_FLOOR * 2)).toBeLessThan(ESTIMATE_FLOOR * 2 * 0.1);
    const below = await pagination(
      `search=${encodeURIComponent('name:big 2')}&searchFields=name:like&size=100`,
    );
    // 'big 2', 'big 20'..'big 29', 'big 200'..'big 299', 'big 2000'..'big 2999' and 'big 20000'.
    expect(below.total).toBe(1 + 10 + 100 + 1000 + 1);
    expect(below.total_is_capped).toBeUndefined();
    expect(below.total_is_estimate).toBeUndefined();
    // COUNT_CAP: what a counted filter stops at (engine-filter-totals.test.ts shows it reached).
    expect(COUNT_CAP).toBe(ESTIMATE_FLOOR);
  });
});
