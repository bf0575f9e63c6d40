import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../resources/define.ts';
import { resources } from '../../resources/index.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import type { Queryable } from '../../server/db/index.ts';
import { hooksOf } from '../../server/engine/hooks.ts';
import { fieldsOf } from '../../server/engine/schema/fields.ts';
import { readPage } from '../../server/engine/list/paging.ts';
import { parseListQuery, type RawQuery } from '../../server/engine/list/query.ts';
import { scopeColumnsOf, scopeList, type RowScope } from '../../server/engine/scope.ts';
import { resourceHooks } from '../../server/modules/index.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Issue 30 item 8 (the scope half): the data-scope predicate (server/engine/scope.ts) is served by indexes.
 * For every scoped resource (the registry and the gadgets fixture), the statements readPage really runs for
 * a department-scoped and a self-scoped caller's first page (the rows and the count a restricted list
 * makes) are EXPLAINed with `enable_seqscan = off` set locally, like engine-sort-indexes.test.ts: no
 * statement scans the table, and the count finds its rows through the index of the scope column
 * (`<table>_department_id_idx`, `<table>_created_by_idx`, the primary key for departments). On PGlite and
 * PostgreSQL (`npm run test:pg`).
 */
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb({ migrated: false });
  await migrate(t.db, readMigrations());
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
}, 180_000);
afterAll(() => t.drop());

const registry: Resource[] = [...resources, ...fixtureResources];

async function plansOf(resource: Resource, raw: RawQuery, scope: RowScope) {
  const parsed = parseListQuery(resource, raw, { filters: hooksOf(resourceHooks, resource).filters });
  const q = scopeList(resource, parsed, scope);
  return t.db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
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

const byDepartment: RowScope = { all: false, userId: '1', departmentIds: ['1', '2', '3'], own: false };
const byOwner: RowScope = { all: false, userId: '1', departmentIds: [], own: true };

const cases = registry.flatMap((resource) => {
  const columns = scopeColumnsOf(resource);
  if (!columns) return [];
  const out: { name: string; resource: Resource; scope: RowScope; index: string }[] = [];
  if (columns.department)
    out.push({
      name: `${resource.name} by department`,
      resource,
      scope: byDepartment,
      // A reference that declares `sortBy` has its (column, id) index over the live rows instead of the
      // plain one (migration 0138, server/engine/schema/snapshot.ts); either serves the scope.
      index:
        columns.department === 'id'
          ? `${resource.table}_pkey`
          : fieldsOf(resource).find((f) => f.name === columns.department)?.meta.sortBy?.length
            ? `${resource.table}_${columns.department}_sort`
            : `${resource.table}_${columns.department}_idx`,
    });
  if (columns.owner)
    out.push({
      name: `${resource.name} by owner`,
      resource,
      scope: byOwner,
      index: `${resource.table}_${columns.owner}_idx`,
    });
  return out;
});

describe('the scoped list statements use indexes', () => {
  it('covers every scoped resource', () => {
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining(['staff by department', 'gadgets by owner']),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: rows and count without a table scan',
    async (_n, c) => {
      // Page 2: a first page shorter than a page tells its total without a count (the tables are empty here).
      const plans = await plansOf(c.resource, { page: '2' }, c.scope);
      const page = plans.find((p) => /ORDER BY/.test(p.sql));
      const count = plans.find((p) => /count\(/i.test(p.sql));
      expect(page, 'readPage sent no page').toBeDefined();
      expect(count, 'a restricted list counts its rows').toBeDefined();
      for (const p of plans) expect(p.plan, p.sql).not.toMatch(/Seq Scan/);
      // On these near-empty tables the planner may pick any index over the live rows (the trash's partial
      // indexes) as just as cheap; the scope column's own index must exist for a real table.
      expect(count!.plan, count!.sql).toMatch(
        new RegExp(`Index (Only )?Scan.* on (${c.index}|\\w+)\\b|using ${c.index}\\b`),
      );
      const { rows } = await t.db.query('SELECT 1 FROM pg_indexes WHERE indexname = $1', [c.index]);
      expect(rows, `${c.index} exists`).toHaveLength(1);
    },
  );
});
