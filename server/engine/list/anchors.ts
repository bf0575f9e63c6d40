import type { FastifyInstance } from 'fastify';
import { soonAfterListen } from '../../core/after-listen.ts';
import type { Resource } from '../../../resources/define.ts';
import type { Db, Queryable } from '../../db/index.ts';
import type { ListQuery } from './query.ts';

/**
 * Remembered page positions ("anchors") of lists read by page number, per process: data the list planner
 * (plan.ts) consults and its executor (execute.ts) updates. PostgreSQL has no index that knows a row's position in an order, so `page=25000` must walk past every row
 * before it. After such a walk the server remembers, for that very query (table, filter, its values, order),
 * the sort keys of the page's first and last rows and their positions; a later page of the same query near
 * a remembered position reads by keyset from it (`WHERE (sort, id) >= keys`, a short OFFSET) instead of
 * walking from the start or the end again. The first visit to a deep page still walks; later visits to it
 * and its neighbours do not.
 *
 * Freshness: migration 0111 (and every table `make:migration` creates) has a statement-level trigger that
 * NOTIFYs `table_changes` with the table's name on any INSERT, UPDATE, DELETE or TRUNCATE, by whatever
 * writes it (an API call, a CLI, hand-written SQL); since migration 0145 an UPDATE of the tables of 0111
 * says which columns it changed (`<table>:<col>,...`, nothing for an UPDATE that changed no row), and a
 * query whose WHERE and ORDER BY name none of them keeps its anchors (dropAnchors). Every server LISTENs and forgets that table's anchors,
 * as the auth cache does (server/core/auth-cache.ts): on PostgreSQL every pooled connection listens too, so
 * a change committed before a statement was sent has dropped the anchors by the time that statement's answer
 * arrives (PGlite delivers in process, before the writer's query resolves). So a page read through an
 * anchor is checked after its query: if any table changed meanwhile (the generation moved), it is read
 * again the plain way; a read that saw a change come in stores nothing. Anchors are used only while the
 * server is listening, only for lists whose filter reads known tables (ListQuery `reads`) that all have the
 * trigger (a table made by a hand-written migration without it keeps none), and bounded:
 * MAX_ANCHORS per query and MAX_QUERIES queries, each least recently used first out.
 */
export const TABLE_CHANNEL = 'table_changes';
/** A page whose plain read walks fewer rows than this leaves no anchors: walking that far is cheap. */
export const ANCHOR_MIN_WALK = 1_000;
/** Anchors kept per query (two per page read: its first and its last row). */
export const MAX_ANCHORS = 32;
/** Queries (table + filter + values + order) with anchors kept per process. */
export const MAX_QUERIES = 200;

/**
 * One remembered row: its sort keys and its position, counted from the start of the order (`start`) or,
 * for a page of an estimated total read from the other end, from the end (`end`: the estimate may move,
 * the rows' distance from the end does not). `next`: whether a row follows it in that order (null: unknown).
 */
export interface Anchor {
  system: 'start' | 'end';
  pos: number;
  keys: (string | null)[];
  next: boolean | null;
}

interface QueryAnchors {
  /** The tables whose change forgets these anchors: the resource's own and those its filter reads. */
  tables: string[];
  /** The words of the query's WHERE and ORDER BY (its columns among them): an UPDATE of other columns of the resource's own table keeps the anchors. */
  words: ReadonlySet<string>;
  anchors: Anchor[];
}

interface AnchorCache {
  /** Servers listening for table changes on this database; anchors are used only while above 0. */
  listening: number;
  /** Bumped on every change heard: a read that began in an older generation stores nothing. */
  generation: number;
  /** The last changes heard (RECENT_CHANGES), each with the generation it made: a read is current when none since its start could move its rows. */
  recent: { generation: number; change: TableChange }[];
  queries: Map<string, QueryAnchors>;
  /** Tables with a trigger calling table_changed() (read whenever listening starts): only they keep anchors. */
  watched: Set<string>;
  /** Pages answered through an anchor since the process started (for tests and the operations doc). */
  hits: number;
}

const caches = new WeakMap<object, AnchorCache>();

/**
 * The cache of the database `db` queries through: `db` itself, or the database a wrapper was made from
 * with Object.create (principal.ts readSettlingAuth). A transaction's handle has none: no anchors there.
 */
function cacheOf(db: Queryable): AnchorCache | null {
  for (let o: object | null = db; o; o = Object.getPrototypeOf(o) as object | null) {
    const cache = caches.get(o);
    if (cache) return cache;
  }
  return null;
}

/** A change heard: of `table` (null: of any table), of only these `columns` (null: of any). */
interface TableChange {
  table: string | null;
  columns: readonly string[] | null;
}

/** Changes remembered for reads in flight; a read that began before the oldest of them is not current. */
const RECENT_CHANGES = 64;

/**
 * Whether `change` may move the rows of a query on `tables` (its own first) whose WHERE and ORDER BY hold
 * `words`: a change of a table it reads, unless an UPDATE of only columns it does not name on its own table.
 */
function moves(change: TableChange, tables: readonly string[], words: ReadonlySet<string>): boolean {
  if (change.table === null) return true;
  if (!tables.includes(change.table)) return false;
  if (change.columns === null || tables[0] !== change.table || tables.slice(1).includes(change.table))
    return true;
  return change.columns.some((c) => words.has(c.toLowerCase()));
}

/**
 * Forgets the anchors of every query reading `table` (every query when `table` is null). `columns`: an
 * UPDATE changed only these columns of `table` (migration 0145), so a query on `table` itself whose WHERE
 * and ORDER BY name none of them keeps its anchors: its rows and their order are what they were.
 */
export function dropAnchors(db: Db, table: string | null, columns: readonly string[] | null = null): void {
  const cache = cacheOf(db);
  if (!cache) return;
  cache.generation += 1;
  const change = { table, columns };
  cache.recent.push({ generation: cache.generation, change });
  if (cache.recent.length > RECENT_CHANGES) cache.recent.shift();
  for (const [key, entry] of cache.queries)
    if (moves(change, entry.tables, entry.words)) cache.queries.delete(key);
}

/** A `table_changes` payload: `<table>`, or `<table>:<column>,...` for an UPDATE of only those columns. */
export function parseTableChange(payload: string): { table: string; columns: string[] | null } {
  const colon = payload.indexOf(':');
  if (colon === -1) return { table: payload, columns: null };
  return { table: payload.slice(0, colon), columns: payload.slice(colon + 1).split(',') };
}

/** Starts listening for table changes; the returned function stops. Until then (or if it fails) no anchors. */
export async function listenForTableChanges(db: Db): Promise<() => Promise<void>> {
  let cache = caches.get(db);
  if (!cache) {
    cache = { listening: 0, generation: 0, recent: [], queries: new Map(), watched: new Set(), hits: 0 };
    caches.set(db, cache);
  }
  const own = cache;
  let unlisten: () => Promise<void>;
  try {
    // After a gap in listening, changes may have gone unheard: every anchor is dropped.
    unlisten = await db.listen(
      TABLE_CHANNEL,
      (payload) => {
        const { table, columns } = parseTableChange(payload);
        dropAnchors(db, table, columns);
      },
      {
        everyConnection: true,
        onGap: () => dropAnchors(db, null),
      },
    );
    // A table made by a hand-written migration without the trigger would never say it changed.
    const { rows } = await db.query<{ name: string }>(
      `SELECT DISTINCT c.relname AS name FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE p.proname = 'table_changed' AND NOT t.tgisinternal`,
    );
    own.watched = new Set(rows.map((r) => r.name));
  } catch {
    return async () => {};
  }
  dropAnchors(db, null);
  own.listening += 1;
  return async () => {
    own.listening -= 1;
    dropAnchors(db, null);
    await unlisten().catch(() => undefined);
  };
}

/**
 * Listens for table changes while the app runs (onReady .. onClose). `afterListen` (a server that starts):
 * from shortly after it listens (core/after-listen.ts), so that the LISTEN and the catalog query for the watched
 * tables (about 15 ms on PGlite) do not delay its first answer (issue 37 item 3). Until then no anchor is
 * kept or used: deep pages are found as without them.
 */
export function registerAnchors(app: FastifyInstance, db: Db, { afterListen = false } = {}): void {
  let stop: (() => Promise<void>) | null = null;
  let closed = false;
  const begin = async () => {
    const stopping = await listenForTableChanges(db);
    if (closed) await stopping();
    else stop = stopping;
  };
  let settle: () => Promise<void> = async () => {};
  if (afterListen) settle = soonAfterListen(app, begin);
  else app.addHook('onReady', begin);
  app.addHook('onClose', async () => {
    closed = true;
    await settle();
    await stop?.();
    stop = null;
  });
}

/** Pages answered through an anchor by this process on this database (tests observe the mechanism here). */
export function anchorHits(db: Db): number {
  return cacheOf(db)?.hits ?? 0;
}

/** Whether this process listens for table changes on this database: anchors are kept and used only then. */
export function anchorsListening(db: Db): boolean {
  return (cacheOf(db)?.listening ?? 0) > 0;
}

/** Queries with anchors kept for this database right now. */
export function anchoredQueries(db: Db): number {
  return cacheOf(db)?.queries.size ?? 0;
}

/** One list query's view of the cache, taken before its first statement (its generation then). */
export interface AnchorScope {
  cache: AnchorCache;
  key: string;
  tables: string[];
  /** What QueryAnchors `words` holds. */
  words: ReadonlySet<string>;
  generation: number;
}

/**
 * The scope of `q`'s anchors, or null when none may be used: the server is not listening, the filter runs
 * SQL of a hook's own, or a table it reads has no `table_changed` trigger. The key is what a cursor's
 * fingerprint (cursor.ts) holds but the page size (positions are rows).
 */
export function anchorScope(db: Queryable, resource: Resource, q: ListQuery): AnchorScope | null {
  const cache = cacheOf(db);
  if (!cache || cache.listening === 0 || q.reads === null) return null;
  const tables = [resource.table, ...q.reads];
  if (!tables.every((table) => cache.watched.has(table))) return null;
  const key = JSON.stringify([resource.table, q.where, q.params, q.orderBy]);
  const sql = [q.where, q.orderBy, ...q.order.map((o) => o.sql)].join(' ');
  const words = new Set(sql.toLowerCase().match(/[a-z_][a-z0-9_$]*/g) ?? []);
  return { cache, key, tables, words, generation: cache.generation };
}

/**
 * Whether no change that could move the scope's rows was heard since it was taken (what it read, and its
 * anchors, are still current): none at all, or only UPDATEs of columns its query does not name.
 */
export function isCurrent(scope: AnchorScope): boolean {
  const { cache } = scope;
  if (cache.listening === 0) return false;
  if (cache.generation === scope.generation) return true;
  const since = cache.recent.filter((r) => r.generation > scope.generation);
  if (since.length !== cache.generation - scope.generation) return false;
  return since.every((r) => !moves(r.change, scope.tables, scope.words));
}

/**
 * What the planner consults: this query's anchors (marking the query recently used), or null when none may
 * be used or kept: no scope, or a table changed since the scope was taken. A copy: the cache moves on.
 */
export function anchorsKnown(scope: AnchorScope | null): Anchor[] | null {
  if (!scope || !isCurrent(scope)) return null;
  const { queries } = scope.cache;
  const entry = queries.get(scope.key);
  if (!entry) return [];
  queries.delete(scope.key);
  queries.set(scope.key, entry);
  return [...entry.anchors];
}

/**
 * What the executor leaves after a page is read: a hit when it was read through an anchor, and the
 * positions it `found`; nothing when a table changed since the scope was taken.
 */
export function recordRead(scope: AnchorScope, read: { isHit: boolean; found: readonly Anchor[] }): void {
  if (!isCurrent(scope)) return;
  if (read.isHit) scope.cache.hits += 1;
  if (read.found.length > 0) remember(scope, read.found);
}

/** Stores `found` for this query (most recently used), dropping the oldest past the bounds. */
function remember(scope: AnchorScope, found: readonly Anchor[]): void {
  const { queries } = scope.cache;
  let entry = queries.get(scope.key);
  if (entry) queries.delete(scope.key);
  else entry = { tables: scope.tables, words: scope.words, anchors: [] };
  queries.set(scope.key, entry);
  for (const a of found) {
    const same = entry.anchors.findIndex((b) => b.system === a.system && b.pos === a.pos);
    if (same !== -1) entry.anchors.splice(same, 1);
    entry.anchors.push(a);
  }
  if (entry.anchors.length > MAX_ANCHORS) entry.anchors.splice(0, entry.anchors.length - MAX_ANCHORS);
  while (queries.size > MAX_QUERIES) queries.delete(queries.keys().next().value!);
}
