import type { Resource } from '../../../resources/define.ts';
import { ANCHOR_MIN_WALK, type Anchor } from './anchors.ts';
import type { CursorState } from './cursor.ts';
import type { ListQuery } from './query.ts';
import { COUNT_CAP, isUncounted, type Total } from './totals.ts';

/**
 * The list planner: from the query and what is known before reading (the cursor, the total when it was
 * counted first, the remembered positions), one PagePlan that execute.ts runs. Pure: it reads nothing and
 * changes nothing, so every way of reading a page (paging.ts explains them) is a value a test can look at.
 */

/**
 * One statement reading rows of the query: in its order or reversed (`isReversed`, the rows flipped back
 * after), from the first row or from a row's sort keys (`from`: strictly after a cursor's row, or from an
 * anchor's row inclusive), skipping `offset` rows (the rows it walks past), then `count` rows. `more`:
 * whether rows follow them in the query's order, known from the total or an anchor, or null: one row more is
 * read to find out (only reads in the query's own order leave it null).
 */
export interface Read {
  isReversed: boolean;
  from: { keys: (string | null)[]; source: 'cursor' | 'anchor' } | null;
  offset: number;
  count: number;
  more: boolean | null;
}

/** The total to report: counted after the rows (when more follow them, or a page past the first is empty), already known (counted first, or carried by a cursor), or seenSoFar. */
export type TotalRule = { kind: 'count' } | { kind: 'known'; total: Total } | { kind: 'seen' };

/** Where a page's first row lies: counted from the start of the order, or from its end (Anchor `system`). */
export interface Place {
  system: Anchor['system'];
  at: number;
}

/**
 * How one list request is answered: the page number it reports, the statement that reads it, the plain
 * statement to read it again with when `read` starts from an anchor and a table changed meanwhile, the
 * total to report, and where its first and last rows go among the remembered positions (null: nowhere).
 */
export interface PagePlan {
  page: number;
  read: Read;
  plainRead: Read | null;
  total: TotalRule;
  remember: Place | null;
}

/**
 * What is known before the first row is read: the request's cursor (decoded), the total when it had to be
 * counted first (needsTotalToPlan), and the query's anchors (null: none may be used or kept).
 */
export interface PlanInputs {
  cursor: CursorState | null;
  total: Total | null;
  anchors: readonly Anchor[] | null;
}

/**
 * Whether the total must be counted before planning: a counted page by number past the first is read from
 * whichever end is nearer, which only the total tells; not when it is read first (readsBeforeCounting).
 */
export function needsTotalToPlan(resource: Resource, q: ListQuery): boolean {
  return q.cursor === null && q.page > 1 && !isUncounted(resource, q) && !readsBeforeCounting(resource, q);
}

/**
 * A page by number that ends within COUNT_CAP rows is read from the start before anything is counted (its
 * walk is no longer than a capped count's): when no row follows it, it is the last page and its total is
 * the rows up to its end, counted by nobody (issue 37); otherwise the total is counted after, as a first
 * page's is. Not for `estimatedTotal: false` resources (an exact count may be big; it plans the page).
 */
export function readsBeforeCounting(resource: Resource, q: ListQuery): boolean {
  return resource.options.estimatedTotal !== false && q.page * q.size <= COUNT_CAP;
}

/** The plan for `q`: the next page after a cursor, the first page, or a deeper page by number. */
export function planPage(resource: Resource, q: ListQuery, known: PlanInputs): PagePlan {
  const isCounted = !isUncounted(resource, q);
  const seen: TotalRule = { kind: 'seen' };
  if (known.cursor) {
    const { keys, page, total } = known.cursor;
    const read = firstRows(q, { keys, source: 'cursor' });
    return {
      page,
      read,
      plainRead: null,
      total: isCounted ? { kind: 'known', total } : seen,
      remember: null,
    };
  }
  if (q.page === 1) {
    const total: TotalRule = isCounted ? { kind: 'count' } : seen;
    return { page: 1, read: firstRows(q, null), plainRead: null, total, remember: null };
  }
  if (isCounted && !known.total && readsBeforeCounting(resource, q))
    return { page: q.page, ...planSpan(spanOf(q, null), known.anchors), total: { kind: 'count' } };
  const total = isCounted ? known.total : null;
  if (isCounted && !total) throw new Error('planPage: a counted page past the first needs its total');
  const span = spanOf(q, total);
  return { page: q.page, ...planSpan(span, known.anchors), total: total ? { kind: 'known', total } : seen };
}

/** A page of `q` in its order from the start (or from a cursor's row), one row more to learn whether more follow. */
function firstRows(q: ListQuery, from: Read['from']): Read {
  return { isReversed: false, from, offset: 0, count: q.size, more: null };
}

/**
 * The rows a page by number covers: positions `at` .. `at + count - 1` counted from the start (`system:
 * 'start'`, the query's order) or from the end (`'end'`, the reversed order). `more`: whether rows follow
 * the span in the query's order, null when unknown. `fromEnd`: the rows after the span when the total is
 * exact (the span may then be read from the other end).
 */
interface Span extends Place {
  count: number;
  more: boolean | null;
  fromEnd: number | null;
}

/**
 * The span of page `q.page`: from the start, or, when it lies in the second half of a known total, closer
 * to the end. With an estimated total that page is the rows that far from the end, so its positions count
 * from there.
 */
function spanOf(q: ListQuery, total: Total | null): Span {
  const offset = (q.page - 1) * q.size;
  const fromStart: Span = { system: 'start', at: offset, count: q.size, more: null, fromEnd: null };
  const remaining = total ? total.total - offset : 0;
  if (!total || total.isCapped || remaining <= 0 || remaining >= offset) return fromStart;
  const count = Math.min(q.size, remaining);
  const fromEnd = remaining - count;
  return total.isEstimate
    ? { system: 'end', at: fromEnd, count, more: fromEnd > 0, fromEnd: null }
    : { system: 'start', at: offset, count, more: fromEnd > 0, fromEnd };
}

/**
 * Reads a span the shortest way: from the start, from the end (an exact total), or from the nearest anchor
 * ahead of or behind it, whichever walks past fewest rows (the first of equals). Its first and last rows are
 * remembered when its plain read walks ANCHOR_MIN_WALK rows or more.
 */
function planSpan(span: Span, anchors: readonly Anchor[] | null): Omit<PagePlan, 'page' | 'total'> {
  const plainReads = readsFromEnds(span);
  const plain = shortest(plainReads);
  const read =
    anchors && plain.offset > 0 ? shortest([...plainReads, ...readsFromAnchors(span, anchors)]) : plain;
  return {
    read,
    plainRead: read.from ? plain : null,
    remember: anchors && plain.offset >= ANCHOR_MIN_WALK ? { system: span.system, at: span.at } : null,
  };
}

/** The plain reads of a span: forward from its system's first row, and backward from the last when exact. */
function readsFromEnds(span: Span): Read[] {
  const isEnd = span.system === 'end';
  const { count, more } = span;
  const reads: Read[] = [{ isReversed: isEnd, from: null, offset: span.at, count, more }];
  if (span.fromEnd !== null)
    reads.push({ isReversed: !isEnd, from: null, offset: span.fromEnd, count, more });
  return reads;
}

/**
 * Reads of a span from this query's anchors in its system: forward from one at or before its first row, or
 * backward from one at or after its last row (when whether more rows follow is known, or the anchor tells).
 */
function readsFromAnchors(span: Span, anchors: readonly Anchor[]): Read[] {
  const isEnd = span.system === 'end';
  const last = span.at + span.count - 1;
  const reads: Read[] = [];
  for (const a of anchors) {
    if (a.system !== span.system) continue;
    const from = { keys: a.keys, source: 'anchor' as const };
    if (a.pos <= span.at)
      reads.push({ isReversed: isEnd, from, offset: span.at - a.pos, count: span.count, more: span.more });
    else if (a.pos >= last && (span.more !== null || a.pos > last || a.next !== null)) {
      const more = span.more ?? (a.pos > last || a.next === true);
      reads.push({ isReversed: !isEnd, from, offset: a.pos - last, count: span.count, more });
    }
  }
  return reads;
}

/** The read walking past the fewest rows; the first of equals. */
function shortest(reads: readonly Read[]): Read {
  return reads.reduce((a, b) => (b.offset < a.offset ? b : a));
}
