import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { computed, defineResource, field, type Resource } from '../../resources/define.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import type { Queryable } from '../../server/db/index.ts';
import { readPage } from '../../server/engine/list/paging.ts';
import { parseListQuery } from '../../server/engine/list/query.ts';
import { textCollation } from '../../server/engine/list/related.ts';
import { makeMigration } from '../../server/engine/schema/make-migration.ts';
import { scopeList } from '../../server/engine/scope.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Issue 35 item 8, the index of a sortable computed column: `make:migration` writes an expression index whose
 * first key is the very expression the list's ORDER BY carries (server/engine/list/computed.ts computedSql),
 * then "id", over the live rows, plus the collated ones for a text value. Its snapshot carries the expression:
 * an unchanged declaration writes nothing, a changed expression drops and recreates the index. Applied to a
 * real database with rows, the engine's own page statement (recorded on its way to the database, planned as
 * it comes, nothing disabled) reads that index in order, with no Sort step. On PGlite and PostgreSQL
 * (`npm run test:pg`).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'computed-index-'));
let t: TestDb;

const declare = (factor: string) =>
  defineResource({
    name: 'cx_lines',
    endpoint: 'v1/t/cx-lines',
    permission: 't.cx_lines',
    schema: z.object({
      name: field(z.string().min(1), {}),
      quantity: field(z.int().min(0), {}),
      unit_price: field(z.number().min(0), {}),
      total: computed(z.number(), {
        sql: (c) => `${c('quantity')} * ${c('unit_price')}${factor}`,
        sort: true,
      }),
      shout: computed(z.string(), { sql: (c) => `upper(${c('name')})`, sort: true }),
    }),
  });
const v1 = declare('');
const v2 = declare(' * 2');

const make = (resource: Resource) => {
  const applied = new Set(fs.existsSync(dir) ? readMigrations(dir).map((m) => m.name) : []);
  return makeMigration({ resource, registry: [resource], dir, applied });
};

beforeAll(async () => {
  t = await createTestDb({ migrated: false });
}, 180_000);
afterAll(async () => {
  await t?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The plan of the statement readPage sends for the first page of `orderBy=<field>`, and that statement. */
async function pagePlan(resource: Resource, field: string, order: 'asc' | 'desc', locale: string) {
  const context = { collation: await textCollation(t.db, locale), related: new Map() };
  const q = scopeList(resource, parseListQuery(resource, { orderBy: field, sortedBy: order }, { context }), {
    all: true,
  });
  const sent: { sql: string; params: readonly unknown[] }[] = [];
  const recording: Queryable = {
    query: (sql, params = []) => {
      sent.push({ sql, params });
      return t.db.query(sql, params);
    },
    exec: (sql) => t.db.exec(sql),
  };
  await readPage(recording, resource, q);
  const page = sent.find((s) => /ORDER BY/.test(s.sql));
  expect(page, 'readPage sent no ORDER BY').toBeDefined();
  const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${page!.sql}`, page!.params);
  return { sql: page!.sql, plan: rows.map((r) => r['QUERY PLAN']).join('\n') };
}

describe('a sortable computed column has its generated expression index', () => {
  it('make:migration writes it with the ORDER BY expression, nothing when unchanged, a recreation when changed', async () => {
    const created = make(v1);
    expect(created.status).toBe('created');
    const sql = fs.readFileSync(created.file!, 'utf8');
    const live = 'WHERE "deleted_at" IS NULL;';
    const total = '("cx_lines"."quantity" * "cx_lines"."unit_price")';
    expect(sql).toContain(`CREATE INDEX "cx_lines_total_sort" ON "cx_lines" (${total}, "id") ${live}`);
    const shout = '(upper("cx_lines"."name"))';
    expect(sql).toContain(`CREATE INDEX "cx_lines_shout_sort" ON "cx_lines" (${shout}, "id") ${live}`);
    expect(sql).toContain(
      `CREATE INDEX "cx_lines_shout_ci" ON "cx_lines" (${shout} COLLATE "und-x-icu", "id") ${live}`,
    );
    expect(sql).toContain(
      `THEN CREATE INDEX "cx_lines_shout_zh" ON "cx_lines" (${shout} COLLATE "zh-x-icu", "id")`,
    );
    // No column of the table: the expression is computed, never stored.
    expect(sql).not.toMatch(/"total" double precision|"shout" text/);

    expect(make(v1)).toMatchObject({ status: 'unchanged', file: null });

    const altered = make(v2);
    expect(altered.status).toBe('altered');
    const change = fs.readFileSync(altered.file!, 'utf8');
    const doubled = '("cx_lines"."quantity" * "cx_lines"."unit_price" * 2)';
    expect(change.split('\n').slice(1)).toEqual([
      'DROP INDEX IF EXISTS "cx_lines_total_sort";',
      `CREATE INDEX "cx_lines_total_sort" ON "cx_lines" (${doubled}, "id") ${live}`,
      '',
    ]);
    expect(make(v2)).toMatchObject({ status: 'unchanged', file: null });

    for (const m of readMigrations(dir)) await t.db.exec(m.sql);
    const { rows } = await t.db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'cx_lines' AND indexname LIKE 'cx_lines_total%'`,
    );
    expect(rows.map((r) => r.indexname)).toEqual(['cx_lines_total_sort']);
    expect(rows[0]!.indexdef).toMatch(/\* \(?2\)?/);
  });

  it.each([
    ['total', 'asc', 'en', 'cx_lines_total_sort'],
    ['total', 'desc', 'en', 'cx_lines_total_sort'],
    ['shout', 'asc', 'en', 'cx_lines_shout_ci'],
    ['shout', 'desc', 'zh-CN', null],
  ] as const)(
    'orderBy=%s sortedBy=%s (%s): the first page reads the index in order, no sort',
    async (field, order, locale, index) => {
      const seeded = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM "cx_lines"');
      if (seeded.rows[0]!.n === '0') {
        await t.db.exec(`INSERT INTO "cx_lines" ("name", "quantity", "unit_price")
          SELECT 'line ' || i, i % 97, (i % 13) * 1.5 FROM generate_series(1, 5000) i;
          ANALYZE "cx_lines";`);
      }
      // zh-CN sorts by pinyin where the database's ICU has it (PostgreSQL), else case-insensitively.
      const zh = (await textCollation(t.db, locale)) === 'zh-x-icu';
      const expected = index ?? (zh ? 'cx_lines_shout_zh' : 'cx_lines_shout_ci');
      const { sql, plan } = await pagePlan(v2, field, order, locale);
      expect(plan, sql).toMatch(new RegExp(`Index Scan( Backward)? using ${expected}\\b`));
      expect(plan, sql).not.toMatch(/Sort Key|Seq Scan/);
    },
  );
});
