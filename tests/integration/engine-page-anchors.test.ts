import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { Db } from '../../server/db/index.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import {
  ANCHOR_MIN_WALK,
  anchorHits,
  anchoredQueries,
  listenForTableChanges,
} from '../../server/engine/list/anchors.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { COUNT_CAP } from '../../server/engine/list/paging.ts';
import { parseListQuery } from '../../server/engine/list/query.ts';
import { textCollation } from '../../server/engine/list/related.ts';
import { modules as defaultModules, resourceHooks } from '../../server/modules/index.ts';
import type { CursorPagination } from '../../schemas/pagination.ts';
import { hooksOf } from '../../server/engine/hooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources, gadgets } from '../fixtures/gadgets.ts';

/**
 * Remembered page positions (server/engine/list/anchors.ts), against the real API on PGlite (`npm test`) and
 * PostgreSQL (`npm run test:pg`): a page asked for by number is always exactly the page a plain
 * `ORDER BY ... LIMIT/OFFSET` gives on the data of that moment (or, for an estimated total's second half,
 * the rows that far from the end, as paging.ts defines it), through random sequences of deep pages and their
 * neighbours over several sorts (nullable fields, descending, mixed) and filters, interleaved with writes
 * through the API and by hand-written SQL. The anchors are really used (the process's hit count grows), and
 * any write, by whatever writes it, forgets them before the next request: on PostgreSQL also on a second
 * server with its own pool.
 */
const BASE = '/api/v1/test/gadgets';
const ROWS = 12_000;
let t: TestApp;
let admin: string;
let secondDb: Db | null = null;
let second: FastifyInstance | null = null;

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  // The fixture's tables come after the server's migrations: gadgets' UPDATEs say which columns they
  // changed as the product's tables' do since migration 0145.
  await t.db.query(`SELECT track_updated_columns('gadgets')`);
  if (t.dbUrl) {
    secondDb = await openPostgres(t.dbUrl, { max: 3 });
    const engine = createResourcesModule({
      resources: fixtureResources,
      migrationsDir: FIXTURE_MIGRATIONS,
      hooks: resourceHooks,
    });
    second = await buildApp({
      db: secondDb,
      config: t.config,
      logger: pino({ level: 'silent' }),
      modules: defaultModules.map((m) => (m.name === engine.name ? engine : m)),
    });
    await second.ready();
  }
}, 180_000);
afterAll(async () => {
  await second?.close();
  await secondDb?.close();
  await t.close();
});

interface Listed {
  ids: string[];
  pagination: CursorPagination;
}

async function list(query: string, server: FastifyInstance = t.app): Promise<Listed> {
  const res = await server.inject({ url: `${BASE}?${query}`, headers: { authorization: `Bearer ${admin}` } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().data as { data: { id: string }[]; meta: { pagination: CursorPagination } };
  return { ids: body.data.map((r) => r.id), pagination: body.meta.pagination };
}

/** Replaces the gadgets with ROWS rows full of ties and NULLs, and analyzes them (an estimated total). */
async function seed(): Promise<void> {
  await t.db.exec('DELETE FROM gadget_parts; DELETE FROM gadgets_gadget_tags; DELETE FROM gadgets');
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price, stock, state, released_on, launched_at, views)
     SELECT (ARRAY['alpha', 'bravo', 'Beta', 'cobalt', 'delta'])[1 + g % 5], 'S-' || g, (g % 13) * 1.5, g % 4,
            g % 3 <> 0, CASE WHEN g % 4 <> 0 THEN date '2024-01-01' + (g % 40) END,
            CASE WHEN g % 5 <> 0 THEN timestamptz '2024-01-01' + (g % 60) * interval '1 hour' END,
            CASE WHEN g % 6 <> 0 THEN g % 50 END
       FROM generate_series(1, $1::int) g`,
    [ROWS],
  );
  await t.db.exec('ANALYZE gadgets');
}

/**
 * The page the contract defines for `query` (filter + sort) as of now, by plain SQL: LIMIT/OFFSET, except the
 * second half of an estimated total, which is the rows that far from the end (paging.ts "Deep pages").
 */
async function expectedPage(
  query: string,
  page: number,
  size: number,
  pagination: CursorPagination,
): Promise<{ ids: string[]; more: boolean }> {
  const raw = Object.fromEntries(new URLSearchParams(query));
  // Text sorts in the collation the server uses for a request without Accept-Language (zh-CN, related.ts).
  const context = { collation: await textCollation(t.db, 'zh-CN'), related: new Map() };
  const q = parseListQuery(gadgets, raw, { filters: hooksOf(resourceHooks, gadgets).filters, context });
  // Lists show live rows only: a record deleted through the API waits in the trash (deleted_at set).
  const where = q.where ? `${q.where} AND deleted_at IS NULL` : 'WHERE deleted_at IS NULL';
  const offset = (page - 1) * size;
  const remaining = pagination.total - offset;
  // A page ending within the count cap is read from the start before any total is known (plan.ts).
  if (pagination.total_is_estimate && page * size > COUNT_CAP && remaining > 0 && remaining < offset) {
    const limit = Math.min(size, remaining);
    const fromEnd = remaining - limit;
    const reversed = parseListQuery(gadgets, { ...raw, ...reverseOrder(q.order) }, { context }).orderBy;
    const { rows } = await t.db.query<{ id: string }>(
      `SELECT id::text AS id FROM gadgets ${where} ${reversed} LIMIT ${limit} OFFSET ${fromEnd}`,
      q.params,
    );
    return { ids: rows.map((r) => r.id).reverse(), more: fromEnd > 0 };
  }
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT id::text AS id FROM gadgets ${where} ${q.orderBy} LIMIT ${size + 1} OFFSET ${offset}`,
    q.params,
  );
  return { ids: rows.slice(0, size).map((r) => r.id), more: rows.length > size };
}

/** `orderBy`/`sortedBy` for the same order reversed (the id included, as the last key). */
function reverseOrder(order: { field: string; desc: boolean }[]): Record<string, string> {
  return {
    orderBy: order.map((o) => o.field).join(';'),
    sortedBy: order.map((o) => (o.desc ? 'asc' : 'desc')).join(';'),
  };
}

async function expectPlainPage(query: string, page: number, size: number, server?: FastifyInstance) {
  const got = await list(`${query}${query ? '&' : ''}size=${size}&page=${page}`, server);
  const want = await expectedPage(query, page, size, got.pagination);
  expect(got.ids, `${query} size ${size} page ${page}`).toEqual(want.ids);
  expect(got.pagination.next_cursor !== null, `more after ${query} page ${page}`).toBe(want.more);
  if (query.startsWith('q=b')) {
    // Not counted: the total is the rows up to this page, "N+" while more follow.
    expect(got.pagination.total).toBe((page - 1) * size + want.ids.length);
    expect(got.pagination.total_is_capped ?? false).toBe(want.more);
  }
  return got;
}

/**
 * Visits a page (each time the plain page) until it is answered from a remembered position; returns the
 * visits it took. On PostgreSQL a write's notification reaches each listening connection of the pool, some
 * a moment after the write returned: a visit while one comes in is read the plain way and stores nothing.
 */
async function visitUntilHit(query: string, page: number, server?: FastifyInstance, db: Db = t.db) {
  const hits = anchorHits(db);
  for (let visits = 1; visits <= 5; visits++) {
    await expectPlainPage(query, page, 25, server);
    if (anchorHits(db) > hits) return visits;
  }
  throw new Error(`${query} page ${page}: five visits, none from a remembered position`);
}

const SORTS = [
  'orderBy=views&sortedBy=desc',
  'orderBy=released_on&sortedBy=asc',
  'orderBy=name&sortedBy=asc',
  'orderBy=state;launched_at&sortedBy=asc;desc',
  '',
];
const FILTERS = [
  '', // an estimated total
  'search=stock:1,2&searchFields=stock:in', // an exact count
  'search=stock:0&searchFields=stock:>=', // past the count cap
  'q=b', // a short `like`: not counted
];

type Write =
  | { kind: 'api-create'; n: number }
  | { kind: 'api-patch'; pick: number; views: number }
  | { kind: 'api-delete'; pick: number }
  | { kind: 'sql-insert'; n: number }
  | { kind: 'sql-update'; mod: number; views: number }
  | { kind: 'sql-delete'; mod: number }
  | { kind: 'sql-stock'; mod: number; noop: boolean };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('api-create' as const), n: fc.nat(1_000_000) }),
  fc.record({
    kind: fc.constant('api-patch' as const),
    pick: fc.nat(ROWS),
    views: fc.integer({ min: -5, max: 60 }),
  }),
  fc.record({ kind: fc.constant('api-delete' as const), pick: fc.nat(ROWS) }),
  fc.record({ kind: fc.constant('sql-insert' as const), n: fc.nat(1_000_000) }),
  fc.record({
    kind: fc.constant('sql-update' as const),
    mod: fc.nat(996),
    views: fc.integer({ min: -5, max: 60 }),
  }),
  fc.record({ kind: fc.constant('sql-delete' as const), mod: fc.nat(996) }),
  // Issue 37: an UPDATE of a column some queries filter on (stock), or of no value at all (noop).
  fc.record({ kind: fc.constant('sql-stock' as const), mod: fc.nat(996), noop: fc.boolean() }),
);

let made = 0;
async function apply(w: Write): Promise<void> {
  const someId = async (pick: number) => {
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id::text AS id FROM gadgets WHERE deleted_at IS NULL ORDER BY id OFFSET $1 LIMIT 1',
      [pick % ROWS],
    );
    return rows[0]?.id ?? null;
  };
  const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url, token: admin, ...(payload ? { payload } : {}) });
  switch (w.kind) {
    case 'api-create': {
      const res = await api('POST', BASE, { name: `bravo ${w.n}`, sku: `api-${(made += 1)}`, price: 3 });
      expect(res.statusCode, res.body).toBe(201);
      return;
    }
    case 'api-patch': {
      const id = await someId(w.pick);
      if (!id) return;
      const res = await api('PATCH', `${BASE}/${id}`, { name: `alpha ${w.views}`, stock: w.views & 3 });
      expect(res.statusCode, res.body).toBe(200);
      return;
    }
    case 'api-delete': {
      const id = await someId(w.pick);
      if (!id) return;
      expect((await api('DELETE', `${BASE}/${id}`)).statusCode).toBe(200);
      return;
    }
    case 'sql-insert':
      await t.db.query(
        `INSERT INTO gadgets (name, sku, price, stock, views) SELECT 'cobalt', 'sql-' || $1::int || '-' || g, 1, g % 4,
                CASE WHEN g % 2 = 0 THEN g END FROM generate_series(1, 7) g`,
        [(made += 1)],
      );
      return;
    case 'sql-update':
      await t.db.query('UPDATE gadgets SET views = $2, released_on = NULL WHERE id % 997 = $1', [
        w.mod,
        w.views,
      ]);
      return;
    case 'sql-delete':
      await t.db.query('DELETE FROM gadgets WHERE id % 997 = $1', [w.mod]);
      return;
    case 'sql-stock':
      await t.db.query(
        `UPDATE gadgets SET stock = ${w.noop ? 'stock' : '(stock + 1) % 4'} WHERE id % 997 = $1`,
        [w.mod],
      );
  }
}

/** A step: a page near the query's home page (or anywhere, now and then), or a write. */
const step = fc.oneof(
  { weight: 8, arbitrary: fc.record({ read: fc.integer({ min: -3, max: 3 }), far: fc.nat(1_000) }) },
  { weight: 2, arbitrary: write.map((w) => ({ write: w })) },
);

describe('remembered page positions', () => {
  it('every page by number is the plain LIMIT/OFFSET page of its moment, through random reads and writes', async () => {
    await seed();
    const before = anchorHits(t.db);
    let reads = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILTERS),
        fc.constantFrom(...SORTS),
        fc.constantFrom(20, 50),
        fc.boolean(),
        fc.array(step, { minLength: 25, maxLength: 40 }),
        async (filter, sort, size, nearEnd, steps) => {
          const query = [filter, sort].filter(Boolean).join('&');
          const total = (await list(`${query}${query ? '&' : ''}size=${size}`)).pagination.total;
          const pages = Math.max(1, Math.ceil(total / size));
          // Deep enough that a plain read walks ANCHOR_MIN_WALK rows from either end: in the first half, or
          // in the second (read from the other end when the total is known).
          const deep = Math.ceil(ANCHOR_MIN_WALK / size) + 2;
          const home = nearEnd ? Math.max(2, pages - deep) : Math.max(2, deep, Math.floor(pages / 2) - 5);
          for (const s of steps) {
            if ('write' in s) {
              await apply(s.write);
              continue;
            }
            const page = s.far % 10 === 0 ? 2 + (s.far % (pages + 3)) : Math.max(1, home + s.read);
            await expectPlainPage(query, page, size);
            reads += 1;
          }
        },
      ),
      { seed: 14_04, numRuns: 16 },
    );
    expect(reads).toBeGreaterThan(16 * 15);
    // The positions were used: the mechanism under test ran (a plain-only server would leave this at 0).
    expect(anchorHits(t.db) - before).toBeGreaterThan(reads / 4);
  }, 600_000);

  it('a revisited deep page and its neighbours start from remembered positions', async () => {
    await seed();
    const query = 'orderBy=views&sortedBy=desc';
    const page = Math.ceil(ANCHOR_MIN_WALK / 25) + 40;
    const cold = anchorHits(t.db);
    await expectPlainPage(query, page, 25);
    expect(anchorHits(t.db)).toBe(cold); // the first visit walks
    expect(await visitUntilHit(query, page)).toBeGreaterThan(0);
    const hits = anchorHits(t.db);
    for (const p of [page + 1, page - 1, page + 2]) await expectPlainPage(query, p, 25);
    expect(anchorHits(t.db)).toBe(hits + 3);
    // Pages near the start are read plainly and leave nothing behind.
    await expectPlainPage('orderBy=name&sortedBy=asc', 3, 25);
    expect(anchorHits(t.db)).toBe(hits + 3);
  });

  it('a write by hand-written SQL or through the API forgets them before the next request', async () => {
    await seed();
    const query = 'orderBy=released_on&sortedBy=asc';
    const page = Math.ceil(ANCHOR_MIN_WALK / 25) + 30;
    await expectPlainPage(query, page, 25);
    expect(anchoredQueries(t.db)).toBeGreaterThan(0);
    // Rows before the page go: a remembered position would now point 40 rows too far.
    await t.db.query(
      `DELETE FROM gadgets WHERE id IN (SELECT id FROM gadgets ORDER BY released_on, id LIMIT 40)`,
    );
    expect(anchoredQueries(t.db)).toBe(0);
    let hits = anchorHits(t.db);
    await expectPlainPage(query, page, 25);
    expect(anchorHits(t.db)).toBe(hits);

    await visitUntilHit(query, page);
    hits = anchorHits(t.db);
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id::text AS id FROM gadgets WHERE deleted_at IS NULL ORDER BY released_on, id LIMIT 1',
    );
    const res = await t.request({ method: 'DELETE', url: `${BASE}/${rows[0]!.id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(anchoredQueries(t.db)).toBe(0);
    await expectPlainPage(query, page, 25);
    expect(anchorHits(t.db)).toBe(hits);
  });

  it("an UPDATE that cannot move a query's rows keeps its positions; one of its columns forgets them", async () => {
    await seed();
    const query = 'orderBy=views&sortedBy=desc';
    const page = Math.ceil(ANCHOR_MIN_WALK / 25) + 40;
    await visitUntilHit(query, page);
    // Neither in the WHERE nor the ORDER BY: no row moves, the next visit starts from the remembered position.
    const touches = [
      "UPDATE gadgets SET name = name || ' x' WHERE id % 997 = 3",
      'UPDATE gadgets SET stock = stock WHERE id % 997 = 5', // no value changes
      'UPDATE gadgets SET views = 1 WHERE false', // no row
    ];
    for (const sql of touches) {
      await t.db.query(sql);
      const hits = anchorHits(t.db);
      await expectPlainPage(query, page, 25);
      expect(anchorHits(t.db), sql).toBe(hits + 1);
    }
    // The sort key changes: forgotten before the next request.
    await t.db.query('UPDATE gadgets SET views = 49 WHERE id % 997 = 7');
    expect(anchoredQueries(t.db)).toBe(0);
    const hits = anchorHits(t.db);
    await expectPlainPage(query, page, 25);
    expect(anchorHits(t.db)).toBe(hits);
    // An API update sets updated_at and the fields it writes: a list not naming them keeps its positions.
    await visitUntilHit(query, page);
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id::text AS id FROM gadgets WHERE deleted_at IS NULL ORDER BY id LIMIT 1',
    );
    const res = await t.request({
      method: 'PATCH',
      url: `${BASE}/${rows[0]!.id}`,
      token: admin,
      payload: { stock: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const before = anchorHits(t.db);
    await expectPlainPage(query, page, 25);
    expect(anchorHits(t.db)).toBe(before + 1);
  });

  it('a table without the table_changed trigger keeps no positions', async () => {
    await seed();
    const query = 'orderBy=name&sortedBy=asc';
    const page = Math.ceil(ANCHOR_MIN_WALK / 25) + 10;
    await t.db.exec('DROP TRIGGER gadgets_table_changed ON gadgets');
    // Listening (re)starts by reading which tables have the trigger, as a server start does.
    await (
      await listenForTableChanges(t.db)
    )();
    try {
      const hits = anchorHits(t.db);
      for (let i = 0; i < 3; i++) await expectPlainPage(query, page, 25);
      expect(anchorHits(t.db)).toBe(hits);
      expect(anchoredQueries(t.db)).toBe(0);
    } finally {
      await t.db.exec(
        `CREATE TRIGGER gadgets_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON gadgets
           FOR EACH STATEMENT EXECUTE FUNCTION table_changed()`,
      );
      await (
        await listenForTableChanges(t.db)
      )();
    }
    await visitUntilHit(query, page);
  });

  // PGlite is one in-process database: a second server with its own connections exists only on PostgreSQL.
  it.skipIf(!process.env.DATABASE_URL)(
    'PostgreSQL: a write committed elsewhere reaches a second server before its next page',
    async () => {
      expect(second, 'the second server (test:pg)').not.toBeNull();
      await seed();
      const query = 'orderBy=views&sortedBy=desc';
      const page = Math.ceil(ANCHOR_MIN_WALK / 25) + 20;
      for (let round = 0; round < 20; round++) {
        await visitUntilHit(query, page, second!, secondDb!);
        const hits = anchorHits(secondDb!);
        // Through the first server's pool, a connection the second server never used.
        await t.db.query(
          `DELETE FROM gadgets WHERE id IN (SELECT id FROM gadgets ORDER BY views DESC, id DESC LIMIT 3)`,
        );
        await expectPlainPage(query, page, 25, second!);
        expect(anchorHits(secondDb!), `round ${round}`).toBe(hits);
      }
    },
  );
});
