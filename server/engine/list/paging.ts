import crypto from 'node:crypto';
import type { Resource } from '../../../resources/define.ts';
import { fieldByName } from '../../../resources/fields.ts';
import { classifyDbError } from '../../core/db-errors.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import {
  ANCHOR_MIN_WALK,
  anchorScope,
  anchorsOf,
  countHit,
  isCurrent,
  remember,
  type Anchor,
  type AnchorScope,
} from './anchors.ts';
import { ident } from '../schema/fields.ts';
import { orderBySql, type ListQuery, type SortKey } from './query.ts';
import { selectColumns } from './records.ts';

/**
 * One page of a list, without scans that grow with the table (contract amendment "Totals and deep pages"):
 *
 * - Totals. An unfiltered list of a big table reports the planner's row estimate (`total_is_estimate`); below
 *   ESTIMATE_FLOOR rows it counts exactly. Any other list counts at most COUNT_CAP + 1 rows and, past the
 *   cap, reports the cap with `total_is_capped` (the UI shows "10,000+"). A resource declaring
 *   `estimatedTotal: false` always counts exactly.
 * - Cursors. Every page answers `next_cursor` (null at the end): the sort keys of its last row plus the
 *   query's fingerprint, the next page's number and the total already known, base64url JSON. `cursor=` with
 *   the same query reads the rows after those keys (`WHERE (sort, id) > (...)`, no OFFSET) and does not count
 *   again: the total travels in the cursor, so paging through one query counts once. A cursor that is not
 *   one of ours, or belongs to another query, is a 422 on `cursor`.
 * - Short searches. A `like` term of 1-2 characters (no trigram index serves it) is not counted: the total
 *   is the rows read up to this page, "N+" while more follow (isUncounted).
 * - Deep pages by number. A `page` in the second half of a known total is read from the other end (the
 *   order reversed, the short OFFSET from the end, the rows flipped back), so the last page costs what the
 *   first does. With an estimated total that page is "the rows that far from the end".
 * - Remembered positions (anchors.ts). PostgreSQL has no index that knows a row's position, so the first
 *   visit to a deep page still walks past every row before it (by id alone, `skipping`). A page whose plain
 *   read skips ANCHOR_MIN_WALK rows or more leaves, per process, the sort keys and positions of its first and
 *   last rows for its query (the inputs of `fingerprint()` but the page size). A later page of that query
 *   reads from the nearest of them when that walks less than the plain way: forward `WHERE (sort, id) >=
 *   keys` with the short OFFSET to the page, or backward in the reversed order with `<=` and the rows
 *   flipped back, through the same deferred join (readSpan). So the revisited page and its neighbours cost
 *   about a cursor page, with exactly the rows of the plain OFFSET. Any write to the table (NOTIFY
 *   `table_changes` from the triggers of migration 0111) forgets them first; a read through a position while
 *   a change came in is read again the plain way.
 */

/** Below this many rows an estimate is replaced by an exact count (cheap there, and never visibly wrong). */
export const ESTIMATE_FLOOR = 10_000;
/** Filtered (and not yet analyzed) lists count at most this many rows; past it the total is "10,000+". */
export const COUNT_CAP = 10_000;
/** Longest `cursor` accepted (a cursor of ours holds one page's sort keys). */
const MAX_CURSOR = 8_192;
/** The column holding each row's sort keys as text (read for the cursor, never sent). */
const KEYS = '__keys';

export interface Total {
  total: number;
  isEstimate: boolean;
  isCapped: boolean;
}

export interface Page extends Total {
  rows: Record<string, unknown>[];
  currentPage: number;
  nextCursor: string | null;
}

interface CursorState {
  keys: (string | null)[];
  page: number;
  total: Total;
}

/** Reads the page `q` asks for (by `cursor`, or by `page`), with its total and the next page's cursor. */
export async function readPage(db: Queryable, resource: Resource, q: ListQuery): Promise<Page> {
  const select = `SELECT ${selectColumns(resource)}, ${keysColumn(q.order)} FROM ${ident(resource.table)}`;
  if (q.cursor) {
    const state = decodeCursor(resource, q, q.cursor);
    const params = [...q.params];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const after = keysetPredicate(resource, q.order, state.keys, bind);
    const where = q.where ? `${q.where} AND (${after})` : `WHERE ${after}`;
    const rows = await badCursorOnDataError(() =>
      db.query(`${select} ${where} ${q.orderBy} LIMIT ${q.size + 1}`, params),
    );
    const total = isUncounted(resource, q) ? seenSoFar(q, state.page, rows.rows.length) : state.total;
    return finish(resource, q, rows.rows, rows.rows.length > q.size, state.page, total);
  }
  const offset = (q.page - 1) * q.size;
  // Taken before the first statement: a table change heard from here on stores no anchors.
  const scope = offset > 0 ? anchorScope(db, resource, q) : null;
  if (isUncounted(resource, q)) {
    const span: Span = { system: 'start', at: offset, count: q.size, more: null, fromEnd: null };
    const read = await readSpan(db, resource, q, select, span, scope);
    return finish(resource, q, read.rows, read.hasMore, q.page, seenSoFar(q, q.page, read.fetched));
  }
  if (offset === 0) {
    const [rows, total] = await Promise.all([
      db.query(`${select} ${q.where} ${q.orderBy} LIMIT ${q.size + 1}`, q.params),
      countRows(db, resource, q),
    ]);
    return finish(resource, q, rows.rows, rows.rows.length > q.size, 1, total);
  }
  const total = await countRows(db, resource, q);
  const remaining = total.total - offset;
  let span: Span = { system: 'start', at: offset, count: q.size, more: null, fromEnd: null };
  if (!total.isCapped && remaining > 0 && remaining < offset) {
    // Closer to the end: read this page from the other end. With an estimated total the page is the rows
    // that far from the end, so its positions count from there.
    const limit = Math.min(q.size, remaining);
    const fromEnd = remaining - limit;
    span = total.isEstimate
      ? { system: 'end', at: fromEnd, count: limit, more: fromEnd > 0, fromEnd: null }
      : { system: 'start', at: offset, count: limit, more: fromEnd > 0, fromEnd };
  }
  const read = await readSpan(db, resource, q, select, span, scope);
  return finish(resource, q, read.rows, read.hasMore, q.page, total);
}

/**
 * The rows at positions `at` .. `at + count - 1` of the list, counted from its start (`system: 'start'`,
 * the order of the query) or from its end (`'end'`, the reversed order). `more`: whether rows follow the
 * span in the query's order, null when unknown (one row more is read to find out). `fromEnd`: the rows after
 * the span when the total is exact (the span may then be read from the other end).
 */
interface Span {
  system: Anchor['system'];
  at: number;
  count: number;
  more: boolean | null;
  fromEnd: number | null;
}

/**
 * How a span is read: in its system's order (`back: false`) or the reverse, from the first row (`from`
 * null) or from an anchor's row inclusive, skipping `offset` rows; `walk` is the rows skipped.
 */
interface Plan {
  back: boolean;
  from: Anchor | null;
  offset: number;
  limit: number;
  walk: number;
}

/**
 * Reads a span the shortest way: from the start, from the end (an exact total), or from the nearest anchor
 * of this query (anchors.ts) ahead of or behind it, whichever walks past fewest rows. A page read through an
 * anchor while a table changed is read again the plain way. Returns the rows in the query's order, whether
 * more follow, how many were fetched (for seenSoFar), and remembers the span's first and last rows when its
 * plain read walks ANCHOR_MIN_WALK rows or more.
 */
async function readSpan(
  db: Queryable,
  resource: Resource,
  q: ListQuery,
  select: string,
  span: Span,
  scope: AnchorScope | null,
): Promise<{ rows: Record<string, unknown>[]; hasMore: boolean; fetched: number }> {
  const extra = span.more === null ? 1 : 0;
  const plain: Plan[] = [
    { back: false, from: null, offset: span.at, limit: span.count + extra, walk: span.at },
  ];
  if (span.fromEnd !== null)
    plain.push({ back: true, from: null, offset: span.fromEnd, limit: span.count, walk: span.fromEnd });
  const shortest = (plans: Plan[]) => plans.reduce((a, b) => (b.walk < a.walk ? b : a));
  const plainPlan = shortest(plain);
  const plans = [...plain];
  if (scope && isCurrent(scope) && plainPlan.walk > 0) {
    const last = span.at + span.count - 1;
    for (const a of anchorsOf(scope, span.system)) {
      if (a.pos <= span.at)
        plans.push({
          back: false,
          from: a,
          offset: span.at - a.pos,
          limit: span.count + extra,
          walk: span.at - a.pos,
        });
      else if (a.pos >= last && (span.more !== null || a.pos > last || a.next !== null))
        plans.push({ back: true, from: a, offset: a.pos - last, limit: span.count, walk: a.pos - last });
    }
  }
  let plan = shortest(plans);
  let fetched = await readPlan(db, resource, q, select, span, plan);
  if (plan.from && scope && !isCurrent(scope)) {
    plan = plainPlan;
    fetched = await readPlan(db, resource, q, select, span, plan);
  } else if (plan.from && scope) countHit(scope);
  const kept = fetched.slice(0, span.count);
  let more = span.more ?? fetched.length > span.count;
  if (plan.back && plan.from && span.more === null)
    more = plan.from.pos > span.at + span.count - 1 || plan.from.next!;
  if (scope && plainPlan.walk >= ANCHOR_MIN_WALK && kept.length > 0) {
    const keysOf = (row: Record<string, unknown>) => row[KEYS] as (string | null)[];
    const next = span.system === 'start' ? more : null;
    remember(scope, [
      { system: span.system, pos: span.at, keys: keysOf(kept[0]!), next: kept.length > 1 ? true : next },
      { system: span.system, pos: span.at + kept.length - 1, keys: keysOf(kept[kept.length - 1]!), next },
    ]);
  }
  const rows = span.system === 'start' ? kept : kept.reverse();
  // As if one row more had been read whenever more follow (a backward read knows it from its anchor).
  return { rows, hasMore: more, fetched: kept.length + (more ? 1 : 0) };
}

/** Runs a plan; the rows come back in the span's system order (the query's order for `start`). */
async function readPlan(
  db: Queryable,
  resource: Resource,
  q: ListQuery,
  select: string,
  span: Span,
  plan: Plan,
): Promise<Record<string, unknown>[]> {
  // The order read in: the span's system order, or its reverse; `true` is the query's order reversed.
  const reversed = (span.system === 'end') !== plan.back;
  const order = reversed ? q.order.map((o) => ({ field: o.field, desc: !o.desc })) : q.order;
  const orderBy = orderBySql(resource.table, order);
  let where = q.where;
  const params = [...q.params];
  if (plan.from) {
    const bind = (value: unknown) => `$${params.push(value)}`;
    const from = keysetPredicate(resource, order, plan.from.keys, bind, true);
    where = q.where ? `${q.where} AND (${from})` : `WHERE ${from}`;
  }
  const { rows } = await db.query(
    skipping(resource, select, where, orderBy, plan.limit, plan.offset),
    params,
  );
  return plan.back ? rows.reverse() : rows;
}

/**
 * `limit` rows after skipping `offset` in `orderBy`, as a deferred join: the subquery walks past the skipped
 * rows reading only ids (an index-only scan of the sort's `(field, id)` index when no filter needs the
 * table), and only the page's rows are read whole. A plain `OFFSET` fetched every skipped row from the
 * table: page 25,000 of a million rows took 94 ms against 5 ms for the first. `orderBy` ends with `id`, so
 * the order, and with it the page, is the same either way.
 */
function skipping(
  resource: Resource,
  select: string,
  where: string,
  orderBy: string,
  limit: number,
  offset: number,
): string {
  if (offset === 0) return `${select} ${where} ${orderBy} LIMIT ${limit}`;
  const id = `${ident(resource.table)}."id"`;
  const keys = `SELECT ${id} FROM ${ident(resource.table)} ${where} ${orderBy} LIMIT ${limit} OFFSET ${offset}`;
  return `${select} WHERE ${id} IN (${keys}) ${orderBy}`;
}

function finish(
  resource: Resource,
  q: ListQuery,
  fetched: Record<string, unknown>[],
  hasMore: boolean,
  currentPage: number,
  total: Total,
): Page {
  const kept = fetched.slice(0, q.size);
  const last = kept[kept.length - 1];
  const nextCursor =
    hasMore && last
      ? encodeCursor(resource, q, { keys: last[KEYS] as (string | null)[], page: currentPage + 1, total })
      : null;
  // Copies without the keys column rather than `delete` (which leaves every row a slow dictionary object).
  const rows = kept.map(({ [KEYS]: _keys, ...row }) => row);
  return { rows, currentPage, nextCursor, ...total };
}

/**
 * A `like` term shorter than trigrams serve (query.ts `shortLike`) is not counted: no index can answer it,
 * so each keystroke of a search box would scan the table. Its total is what the pages read so far show
 * (seenSoFar). A resource declaring `estimatedTotal: false` still counts exactly.
 */
function isUncounted(resource: Resource, q: ListQuery): boolean {
  return q.shortLike && resource.options.estimatedTotal !== false;
}

/**
 * The total known from reading page `page` (`fetched` rows of at most size + 1): exact on the last page,
 * else the rows up to this page's end, capped (the UI shows "N+").
 */
function seenSoFar(q: ListQuery, page: number, fetched: number): Total {
  const before = (page - 1) * q.size;
  return fetched > q.size
    ? { total: before + q.size, isEstimate: false, isCapped: true }
    : { total: before + fetched, isEstimate: false, isCapped: false };
}

/**
 * The total of a list: the planner's estimate for an unfiltered list of a big table, a count stopped at
 * COUNT_CAP otherwise (exact below it), an exact count for `estimatedTotal: false` resources.
 */
async function countRows(db: Queryable, resource: Resource, q: ListQuery): Promise<Total> {
  const table = ident(resource.table);
  const exact = resource.options.estimatedTotal === false;
  if (!q.hasFilter && !exact) {
    const n = await plannerEstimate(db, resource.table);
    if (n >= ESTIMATE_FLOOR) return { total: n, isEstimate: true, isCapped: false };
  }
  if (exact) {
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} ${q.where}`, q.params);
    return { total: Number(rows[0]!.n), isEstimate: false, isCapped: false };
  }
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} ${q.where} LIMIT ${COUNT_CAP + 1}) capped`,
    q.params,
  );
  const n = Number(rows[0]!.n);
  return n > COUNT_CAP
    ? { total: COUNT_CAP, isEstimate: false, isCapped: true }
    : { total: n, isEstimate: false, isCapped: false };
}

/**
 * How many rows the planner thinks a table has now: the density ANALYZE measured (`reltuples / relpages`)
 * times the table's current size in pages, as the planner itself scales it; -1 when never analyzed.
 */
async function plannerEstimate(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ n: string | number | null }>(
    `SELECT (CASE WHEN c.reltuples < 0 THEN -1
                  WHEN c.relpages = 0 THEN c.reltuples
                  ELSE c.reltuples / c.relpages
                       * (pg_relation_size(c.oid) / current_setting('block_size')::int) END)::bigint AS n
       FROM pg_class c WHERE c.oid = to_regclass($1)`,
    [ident(table)],
  );
  return Number(rows[0]?.n ?? -1);
}

/** `ARRAY["name"::text, "id"::text] AS "__keys"`: a row's sort keys as text (exact for every type). */
function keysColumn(order: readonly SortKey[]): string {
  return `ARRAY[${order.map((o) => `${ident(o.field)}::text`).join(', ')}]::text[] AS ${ident(KEYS)}`;
}

/**
 * Rows strictly after `keys` in `order` (PostgreSQL's default NULLS LAST ascending, NULLS FIRST
 * descending). One direction and no NULL possible: a row comparison an index on the sort columns serves;
 * otherwise the lexicographic chain `a > x OR (a = x AND id > y)` with NULLs placed as ORDER BY places them.
 */
function keysetPredicate(
  resource: Resource,
  order: readonly SortKey[],
  keys: readonly (string | null)[],
  bind: (value: unknown) => string,
  inclusive = false,
): string {
  const cols = order.map((o) => ident(o.field));
  const nullable = order.map(
    (o) => o.field !== 'id' && (fieldByName(resource, o.field)?.isNullable ?? false),
  );
  const values = keys.map((k) => (k === null ? null : bind(k)));
  const sameWay = order.every((o) => o.desc === order[0]!.desc);
  if (sameWay && values.every((v) => v !== null) && !nullable.some(Boolean)) {
    const op = `${order[0]!.desc ? '<' : '>'}${inclusive ? '=' : ''}`;
    return order.length === 1
      ? `${cols[0]} ${op} ${values[0]}`
      : `(${cols.join(', ')}) ${op} (${values.join(', ')})`;
  }
  const terms: string[] = [];
  for (let i = 0; i < order.length; i++) {
    const equal = values.slice(0, i).map((v, j) => (v === null ? `${cols[j]} IS NULL` : `${cols[j]} = ${v}`));
    const v = values[i];
    const col = cols[i]!;
    // `inclusive`: the last column (the id) may also equal its key, which takes in the row itself.
    const eq = inclusive && i === order.length - 1 ? '=' : '';
    let after: string;
    if (v === null) after = order[i]!.desc ? `${col} IS NOT NULL` : 'FALSE';
    else if (order[i]!.desc) after = `${col} <${eq} ${v}`;
    else after = nullable[i] ? `(${col} >${eq} ${v} OR ${col} IS NULL)` : `${col} >${eq} ${v}`;
    terms.push(`(${[...equal, after].join(' AND ')})`);
  }
  // A bound on the first column that an index scan can start from (the chain alone would be a filter over
  // the whole index): every row after the keys has its first column at or past the key's (descending,
  // NULLs come first, so before it; ascending after a NULL, only NULLs follow).
  const first = values[0];
  const bound =
    first === null
      ? order[0]!.desc
        ? null
        : `${cols[0]} IS NULL`
      : order[0]!.desc
        ? `${cols[0]} <= ${first}`
        : nullable[0]
          ? null
          : `${cols[0]} >= ${first}`;
  const chain = terms.join(' OR ');
  return bound ? `${bound} AND (${chain})` : chain;
}

/** The query a cursor belongs to: the filter, its values, the order and the page size. */
function fingerprint(resource: Resource, q: ListQuery): string {
  const text = JSON.stringify([resource.name, q.where, q.params.map(String), q.orderBy, q.size]);
  return crypto.createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

function encodeCursor(resource: Resource, q: ListQuery, state: CursorState): string {
  const { total, isEstimate, isCapped } = state.total;
  const body = {
    v: 1,
    q: fingerprint(resource, q),
    k: state.keys,
    p: state.page,
    t: total,
    ...(isEstimate ? { e: 1 } : {}),
    ...(isCapped ? { c: 1 } : {}),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The cursor's state, after checking it is one of ours for this very query; a 422 on `cursor` otherwise. */
function decodeCursor(resource: Resource, q: ListQuery, cursor: string): CursorState {
  let body: unknown;
  try {
    if (cursor.length > MAX_CURSOR || !/^[\w-]+$/.test(cursor)) throw new Error('shape');
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const b = body as {
    v?: unknown;
    q?: unknown;
    k?: unknown;
    p?: unknown;
    t?: unknown;
    e?: unknown;
    c?: unknown;
  };
  const keys = b.k;
  const isValid =
    typeof b === 'object' &&
    b !== null &&
    b.v === 1 &&
    b.q === fingerprint(resource, q) &&
    Array.isArray(keys) &&
    keys.length === q.order.length &&
    keys.every((k, i) => validKey(resource, q.order[i]!, k)) &&
    Number.isSafeInteger(b.p) &&
    (b.p as number) >= 2 &&
    Number.isSafeInteger(b.t) &&
    (b.t as number) >= 0;
  if (!isValid) throw badCursor();
  return {
    keys: keys as (string | null)[],
    page: b.p as number,
    total: { total: b.t as number, isEstimate: b.e === 1, isCapped: b.c === 1 },
  };
}

function validKey(resource: Resource, key: SortKey, value: unknown): boolean {
  if (key.field === 'id') return typeof value === 'string' && /^\d{1,19}$/.test(value);
  if (value === null) return fieldByName(resource, key.field)?.isNullable ?? false;
  return typeof value === 'string' && value.length <= 4096 && !value.includes('\u0000');
}

/** A key of a forged cursor the column cannot hold (class 22: bad number, date...) is the cursor's fault. */
async function badCursorOnDataError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (classifyDbError(error) === 'data') throw badCursor();
    throw error;
  }
}

function badCursor(): AppError {
  return new AppError(422, 'engine.query.bad_cursor', {
    fields: { cursor: ['engine.query.bad_cursor_short'] },
  });
}
