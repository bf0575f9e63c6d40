import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseListQuery } from '../../server/engine/list/query.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { gadgets } from '../fixtures/gadgets.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * `like` searches (`"col"::text ILIKE '%term%'`) are served by the GIN trigram indexes make:migration
 * generates (tests/fixtures/migrations), on PGlite (pg_trgm loaded) and PostgreSQL alike.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  // 2000 filler rows and a few the searches below should find.
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price, description)
     SELECT 'Filler ' || i, 'F-' || i, i, 'plain text ' || i FROM generate_series(1, 2000) AS i`,
  );
  for (const [name, sku, description] of [
    ['Quasar lamp', 'Q-1', null],
    ['Desk QUASAR', 'Q-2', 'with a 100%_real switch'],
    ['Kettle', 'K-1', 'boils like a quasar'],
  ])
    await t.db.query(`INSERT INTO gadgets (name, sku, price, description) VALUES ($1, $2, 1, $3)`, [
      name,
      sku,
      description,
    ]);
  // VACUUM moves the rows out of the GIN pending list and records the index's statistics for the planner.
  await t.db.query('VACUUM ANALYZE gadgets');
});
afterAll(() => t.close());

const names = async (query: string) => {
  const res = await t.request({ url: `${BASE}?${query}&size=100&orderBy=name&sortedBy=asc`, token: admin });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { data: { name: string }[] } }).data.data.map((r) => r.name);
};

/** The plan of the engine's own count query for these list parameters, with sequential scans off. */
async function planOf(raw: Record<string, string>): Promise<string> {
  const q = parseListQuery(gadgets, raw);
  return t.db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT count(*) AS n FROM "gadgets" ${q.where}`,
      q.params,
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe('trigram indexes for like searches', () => {
  it('make:migration created one per like-searchable text column; a btree stays only where useful', async () => {
    const { rows } = await t.db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'gadget%' ORDER BY indexname`,
    );
    const byName = new Map(rows.map((r) => [r.indexname, r.indexdef]));
    for (const name of [
      'gadgets_name_trgm',
      'gadgets_description_trgm',
      'gadgets_email_trgm',
      'gadget_makers_name_trgm',
      'gadget_tags_name_trgm',
      'gadget_parts_name_trgm',
    ])
      expect(byName.get(name), name).toMatch(/USING gin \(\w+ gin_trgm_ops\)$/);
    // name is sortable (its (name, id) btree serves =/in too), email is searched with =: their btrees stay;
    // description is like-only.
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['gadgets_name_sort', 'gadgets_email_idx']));
    expect(byName.has('gadgets_description_idx')).toBe(false);
    // Not like-searchable: no trigram index.
    expect(byName.has('gadgets_sku_trgm')).toBe(false);
    const { rows: ext } = await t.db.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(ext).toHaveLength(1);
  });

  it('a like search on one field can use its trigram index and returns the right rows', async () => {
    expect(await names('search=name:quasar&searchFields=name:like')).toEqual(['Desk QUASAR', 'Quasar lamp']);
    expect(await planOf({ search: 'name:quasar', searchFields: 'name:like' })).toMatch(
      /Bitmap Index Scan on gadgets_name_trgm/,
    );
    // % and _ are still matched literally.
    expect(await names('search=description:100%25_real&searchFields=description:like')).toEqual([
      'Desk QUASAR',
    ]);
    expect(await planOf({ search: 'description:100%_real', searchFields: 'description:like' })).toMatch(
      /Bitmap Index Scan on gadgets_description_trgm/,
    );
  });

  it('a bare search (every field whose default condition is like) can use both indexes', async () => {
    expect(await names('search=quasar')).toEqual(['Desk QUASAR', 'Kettle', 'Quasar lamp']);
    const plan = await planOf({ search: 'quasar' });
    expect(plan).toMatch(/gadgets_name_trgm/);
    expect(plan).toMatch(/gadgets_description_trgm/);
  });
});
