import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition, Resource } from '../../resources/define.ts';
import { fieldsOf, searchableFields, sortableFields } from '../../resources/fields.ts';
import { resources } from '../../resources/index.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import type { Queryable } from '../../server/db/index.ts';
import { hooksOf } from '../../server/engine/hooks.ts';
import { readPage } from '../../server/engine/list/paging.ts';
import { scopeList } from '../../server/engine/scope.ts';
import { parseListQuery, type RawQuery } from '../../server/engine/list/query.ts';
import { textCollation, type ListContext } from '../../server/engine/list/related.ts';
import { resourceHooks } from '../../server/modules/index.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Issue 14 item 3: every sortable field of every resource (the registry and the gadgets fixture) has the
 * index its sort needs, and the declared `=`/`in`/range filters have one too. For each, the engine's own
 * SQL (the statements readPage really runs for the first page, recorded on their way to the database) is
 * EXPLAINed with `enable_seqscan = off` set locally: the page must be read through an index in the list's
 * order (no Sort node), and a filter's count must not scan the table. On PGlite (`npm test`) and PostgreSQL
 * (`npm run test:pg`).
 */
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb({ migrated: false });
  await migrate(t.db, readMigrations());
  // The fixture's versions overlap the product's: applied as the test app applies them (tests/helpers/app.ts).
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
}, 180_000);
afterAll(() => t.drop());

const registry: Resource[] = [...resources, ...fixtureResources];

/** The statements readPage sends for `raw`, and the plan of each, with sequential scans off. */
async function plansOf(
  resource: Resource,
  raw: RawQuery,
  { inOrder = false, context }: { inOrder?: boolean; context?: ListContext } = {},
): Promise<{ sql: string; plan: string }[]> {
  // As the list route reads it: the live rows (not the trash), which the partial sort indexes cover.
  const q = scopeList(
    resource,
    parseListQuery(resource, raw, { filters: hooksOf(resourceHooks, resource).filters, context }),
    { all: true },
  );
  return t.db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    if (inOrder) {
      // And no sort step: on these small tables the live-rows index plus a sort would otherwise be cheaper;
      // what is checked is that an index serves the order (over the live rows, as the list reads them).
      await tx.query('SET LOCAL enable_sort = off');
      await tx.query('SET LOCAL enable_bitmapscan = off');
    }
    const sent: { sql: string; params: readonly unknown[] }[] = [];
    const recording: Queryable = {
      query: (sql, params = []) => {
        sent.push({ sql, params });
        return tx.query(sql, params);
      },
      exec: (sql) => tx.exec(sql),
    };
    await readPage(recording, resource, q);
    const out: { sql: string; plan: string }[] = [];
    for (const s of sent.filter((x) => /\bFROM\s+"/.test(x.sql) && !/pg_class/.test(x.sql))) {
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params);
      out.push({ sql: s.sql, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
    }
    return out;
  });
}

/** The activity log lists through its own module (server/modules/activities), in the columns' own order. */
const usesCollation = (r: Resource) => r.name !== 'activities';

// A sortable computed column (issue 35, `computed({ sql, sort: true })`) is among them: make:migration gives
// it an expression index over the ORDER BY's own expression, named as a column's (server/engine/schema/snapshot.ts).
const isComputed = (r: Resource, field: string) =>
  fieldsOf(r).some((f) => f.name === field && f.meta.computed?.sql !== undefined);

it('the registry and the fixtures have a sortable computed column among the cases', () => {
  expect(registry.some((r) => [...sortableFields(r)].some((field) => isComputed(r, field)))).toBe(true);
});

const sortCases = registry.flatMap((r) =>
  [...sortableFields(r)].flatMap((field) =>
    (['asc', 'desc'] as const).flatMap((dir) =>
      (['en', 'zh-CN'] as const).map((locale) => ({ resource: r, field, dir, locale })),
    ),
  ),
);

describe('every sortable field has its (field, id) index', () => {
  it.each(sortCases.map((c) => [`${c.resource.name}.${c.field} ${c.dir} ${c.locale}`, c] as const))(
    '%s: the first page is an index scan in order',
    async (_name, { resource, field, dir, locale }) => {
      // Text sorts in the request's collation (issue 32 item 7): served by the collated (field, id) indexes.
      const collation = usesCollation(resource) ? await textCollation(t.db, locale) : null;
      const context = { collation, related: new Map() };
      const plans = await plansOf(resource, { orderBy: field, sortedBy: dir }, { inOrder: true, context });
      const page = plans.find((p) => /ORDER BY/.test(p.sql));
      expect(page, 'readPage sent no ORDER BY').toBeDefined();
      const isText = /COLLATE/.test(page!.sql);
      const suffix = !isText ? 'sort' : collation === 'zh-x-icu' ? 'zh' : 'ci';
      const index =
        field === 'id'
          ? `(${resource.table}_pkey|${resource.table}_live_idx)`
          : `${resource.table}_${field}_${suffix}`;
      expect(page!.plan, page!.sql).toMatch(new RegExp(`Index (Only )?Scan( Backward)? using ${index}\\b`));
      expect(page!.plan, page!.sql).not.toMatch(/Sort Key|Seq Scan/);
    },
  );
});

/** A value of the field's kind that its condition accepts. */
function sampleValue(kind: string): string {
  if (kind === 'boolean') return 'true';
  if (kind === 'int' || kind === 'number' || kind === 'reference' || kind === 'references') return '1';
  if (kind === 'date') return '2024-01-01';
  if (kind === 'datetime') return '2024-01-01T00:00:00Z';
  return 'x';
}

const BTREE: Condition[] = ['=', 'in', '>=', '<=', 'between'];

const filterCases = registry.flatMap((r) =>
  [...searchableFields(r)].flatMap(([field, f]) =>
    f.conditions
      .filter((c) => BTREE.includes(c) && f.kind !== 'json')
      .map((condition) => {
        const v = sampleValue(f.kind);
        const value = condition === 'in' || condition === 'between' ? `${v},${v}` : v;
        return { resource: r, field, condition, value };
      }),
  ),
);

describe('declared filters have an index', () => {
  it.each(filterCases.map((c) => [`${c.resource.name}.${c.field} ${c.condition}`, c] as const))(
    '%s: neither the page nor the count scans the table',
    async (_name, { resource, field, condition, value }) => {
      // Page 2: a first page shorter than a page tells its total without a count (the tables are empty).
      const plans = await plansOf(resource, {
        search: `${field}:${value}`,
        searchFields: `${field}:${condition}`,
        page: '2',
      });
      expect(plans.length).toBeGreaterThanOrEqual(2);
      for (const p of plans) expect(p.plan, p.sql).not.toMatch(/Seq Scan/);
    },
  );
});
