import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/index.ts';
import { referencedStorageKeys } from '../../server/engine/stored-keys.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Issue 28 (item 8's loose end): the orphan sweep asks which of 1,000 stored keys an asset still refers to,
 * batch after batch; `assets_storage_key_idx` (declared in resources/assets.ts) answers each batch without
 * reading the whole table. The statement referencedStorageKeys really sends is recorded and EXPLAINed over
 * 20,000 analyzed assets. A short batch is planned through the index as it is; for a full batch of 1,000
 * (5% of this table) the planner rightly prefers one pass over so small a table, so that plan is taken with
 * `enable_seqscan = off` set locally (as engine-sort-indexes.test.ts does): without the index it would
 * still be a Seq Scan. On PGlite and PostgreSQL (`npm run test:pg`).
 */
let t: TestDb;
const ROWS = 20_000;

beforeAll(async () => {
  t = await createTestDb();
  await t.db.exec(
    `INSERT INTO assets (name, size, mime, storage_key)
     SELECT 'f' || g || '.png', g, 'image/png', '2026/11/' || md5(g::text) || '.png'
       FROM generate_series(1, ${ROWS}) AS g;
     ANALYZE assets;`,
  );
}, 180_000);
afterAll(() => t.drop());

/** The plan of each statement referencedStorageKeys sends for `keys`, and what it answers. */
async function lookUp(
  keys: string[],
  { seqscan = true } = {},
): Promise<{ plans: string[]; found: Set<string> }> {
  return t.db.transaction(async (tx) => {
    if (!seqscan) await tx.query('SET LOCAL enable_seqscan = off');
    const sent: { sql: string; params: readonly unknown[] }[] = [];
    const recording: Queryable = {
      query: (sql, params = []) => {
        sent.push({ sql, params });
        return tx.query(sql, params);
      },
      exec: (sql) => tx.exec(sql),
    };
    const found = await referencedStorageKeys(recording, keys);
    const plans: string[] = [];
    for (const s of sent) {
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params);
      // The 1,000 keys of the array literal would fill a failure's message.
      plans.push(rows.map((r) => r['QUERY PLAN'].replace(/'\{[^}]*\}'/g, "'{...}'")).join('\n'));
    }
    return { plans, found };
  });
}

describe('the orphan sweep looks stored keys up through assets_storage_key_idx', () => {
  it('a batch of 1,000 keys (half of them orphans) is read through the index', async () => {
    const keys = Array.from({ length: 1_000 }, (_, i) =>
      i % 2 ? `2026/11/orphan-${i}.png` : `2026/11/${md5Hex(String(i * 17 + 1))}.png`,
    );
    const { plans, found } = await lookUp(keys, { seqscan: false });
    expect(found.size).toBe(500);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) assets_storage_key_idx\b/);
    expect(plans[0]).not.toMatch(/Seq Scan/);
  });

  it('a last, short batch is read through it too', async () => {
    const { plans, found } = await lookUp([`2026/11/${md5Hex('42')}.png`, '2026/11/gone.png']);
    expect([...found]).toEqual([`2026/11/${md5Hex('42')}.png`]);
    expect(plans[0]).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) assets_storage_key_idx\b/);
    expect(plans[0]).not.toMatch(/Seq Scan/);
  });
});

function md5Hex(s: string): string {
  return createHash('md5').update(s).digest('hex');
}
