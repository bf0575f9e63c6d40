import type { Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { ident } from '../schema/fields.ts';
import { isCurrent, recordRead, type Anchor, type AnchorScope } from './anchors.ts';
import { badCursorOnDataError, encodeCursor } from './cursor.ts';
import { keysColumn, keysetPredicate, keysOf } from './keyset.ts';
import type { PagePlan, Place, Read } from './plan.ts';
import { orderBySql, type ListQuery, type SortKey } from './query.ts';
import { RELATED_ORDER_COLUMN, relatedPageSql } from './related.ts';
import { queryPrepared } from './prepared.ts';
import { selectColumns } from './records.ts';
import { countRows, seenSoFar, type Total } from './totals.ts';

export interface Page extends Total {
  /** The page's rows in order, each still with its sort keys (keyset.ts KEYS); wire.ts toWire drops them. */
  rows: Record<string, unknown>[];
  currentPage: number;
  nextCursor: string | null;
}

/** A read's rows in the query's order (the extra row dropped), and whether more follow them. */
interface Rows {
  rows: Record<string, unknown>[];
  hasMore: boolean;
}

/**
 * Runs a plan (plan.ts): its read, then the count when the total is counted now and the rows fill the page
 * (a page with fewer rows than its size ends the list: its total is the rows up to it, counted by nobody);
 * the plain read instead when the first went through an anchor while a table changed; the anchors' hit and
 * positions recorded in `scope` (taken before the request's first statement). Returns the page with its
 * total and next cursor.
 */
export async function executePlan(
  db: Queryable,
  resource: Resource,
  q: ListQuery,
  plan: PagePlan,
  scope: AnchorScope | null,
): Promise<Page> {
  const read = await readPlanned(db, resource, q, plan, scope);
  const seen = () => seenSoFar(q, plan.page, read.rows.length + (read.hasMore ? 1 : 0));
  let total: Total;
  // The count runs after the rows only when they leave the total open: a filtered first page that holds
  // every match (a selective search) no longer scans the same index again to count it, nor does a last
  // page by number (its total is the rows up to its end). An empty page past the first tells nothing.
  const isOpen = read.hasMore || (plan.page > 1 && read.rows.length === 0);
  if (plan.total.kind === 'count') total = isOpen ? await countRows(db, resource, q) : seen();
  else if (plan.total.kind === 'known') total = plan.total.total;
  else total = seen();
  return finish(resource, q, read, plan.page, total);
}

/**
 * The plan's rows. A read through an anchor is checked after its answer arrived: if a table changed since
 * the scope was taken, the page is read again the plain way. What was read is recorded in the same tick.
 */
async function readPlanned(
  db: Queryable,
  resource: Resource,
  q: ListQuery,
  plan: PagePlan,
  scope: AnchorScope | null,
): Promise<Rows> {
  let read = await runRead(db, resource, q, plan.read);
  if (!scope) return read;
  let isHit = plan.plainRead !== null;
  if (plan.plainRead && !isCurrent(scope)) {
    read = await runRead(db, resource, q, plan.plainRead);
    isHit = false;
  }
  const found = plan.remember ? positionsOf(plan.remember, read) : [];
  recordRead(scope, { isHit, found });
  return read;
}

/** Sends one Read's statement; the rows come back in the query's order. */
async function runRead(db: Queryable, resource: Resource, q: ListQuery, read: Read): Promise<Rows> {
  const order = read.isReversed ? q.order.map((o) => ({ ...o, desc: !o.desc })) : q.order;
  if (order[0]?.related) return runRelatedRead(db, resource, q, read, order);
  const select = `SELECT ${selectColumns(resource)}, ${keysColumn(q.order)} FROM ${ident(resource.table)}`;
  let where = q.where;
  const params = [...q.params];
  if (read.from) {
    const bind = (value: unknown) => `$${params.push(value)}`;
    const from = keysetPredicate(resource, order, read.from.keys, bind, read.from.source === 'anchor');
    where = q.where ? `${q.where} AND (${from})` : `WHERE ${from}`;
  }
  const limit = read.count + (read.more === null ? 1 : 0);
  const sql = skipping(resource, select, where, orderBySql(order), limit, read.offset);
  // A read no value can change the plan of (prepared.ts): prepared once per connection on PostgreSQL.
  const isPrepared = params.length === 0 && read.offset === 0;
  const send = () => (isPrepared ? queryPrepared(db, sql, params) : db.query(sql, params));
  const { rows } = read.from?.source === 'cursor' ? await badCursorOnDataError(send) : await send();
  const kept = rows.slice(0, read.count);
  return { rows: read.isReversed ? kept.reverse() : kept, hasMore: read.more ?? rows.length > read.count };
}

/** runRead of a list sorted first by a related field: one statement of related.ts relatedPageSql. */
async function runRelatedRead(
  db: Queryable,
  resource: Resource,
  q: ListQuery,
  read: Read,
  order: readonly SortKey[],
): Promise<Rows> {
  const params = [...q.params];
  const limit = read.count + (read.more === null ? 1 : 0);
  const sql = relatedPageSql(resource, {
    select: selectColumns(resource),
    where: q.where.replace(/^WHERE /, ''),
    order,
    keyOrder: q.order,
    from: read.from && { keys: read.from.keys, inclusive: read.from.source === 'anchor' },
    bind: (value) => `$${params.push(value)}`,
    limit,
    offset: read.offset,
  });
  const send = () => db.query(sql, params);
  const { rows } = read.from?.source === 'cursor' ? await badCursorOnDataError(send) : await send();
  // Without the branches' own sort columns (copies, as finish() does for the keys).
  const clean = rows.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith(RELATED_ORDER_COLUMN))),
  );
  const kept = clean.slice(0, read.count);
  return { rows: read.isReversed ? kept.reverse() : kept, hasMore: read.more ?? rows.length > read.count };
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

/**
 * The anchors a page leaves: its first and last rows in its place's system (from the end: the query's
 * order reversed), with their positions and whether a row follows each in that order (null: unknown).
 */
function positionsOf(place: Place, read: Rows): Anchor[] {
  const rows = place.system === 'start' ? read.rows : [...read.rows].reverse();
  if (rows.length === 0) return [];
  const next = place.system === 'start' ? read.hasMore : null;
  const { system, at } = place;
  return [
    { system, pos: at, keys: keysOf(rows[0]!), next: rows.length > 1 ? true : next },
    { system, pos: at + rows.length - 1, keys: keysOf(rows[rows.length - 1]!), next },
  ];
}

function finish(resource: Resource, q: ListQuery, read: Rows, currentPage: number, total: Total): Page {
  const kept = read.rows.slice(0, q.size);
  const last = kept[kept.length - 1];
  const nextCursor =
    read.hasMore && last
      ? encodeCursor(resource, q, { keys: keysOf(last), page: currentPage + 1, total })
      : null;
  // The rows as read, keys column included: toWire (wire.ts) leaves it out in the one copy it makes anyway
  // (a copy here without it was a second one per row; `delete` would make every row a slow dictionary object).
  return { rows: kept, currentPage, nextCursor, ...total };
}
