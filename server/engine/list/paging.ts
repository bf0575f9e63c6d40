import type { Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { anchorScope, anchorsKnown } from './anchors.ts';
import { decodeCursor } from './cursor.ts';
import { executePlan, type Page } from './execute.ts';
import { needsTotalToPlan, planPage } from './plan.ts';
import type { ListQuery } from './query.ts';
import { countRows } from './totals.ts';

export { COUNT_CAP, ESTIMATE_FLOOR, type Total } from './totals.ts';
export type { Page } from './execute.ts';

/**
 * One page of a list, without scans that grow with the table (contract amendment "Totals and deep pages"):
 *
 * - Totals. An unfiltered list of a big table reports the planner's row estimate (`total_is_estimate`); below
 *   ESTIMATE_FLOOR rows it counts exactly. Any other list counts at most COUNT_CAP + 1 rows and, past the
 *   cap, reports the cap with `total_is_capped` (the UI shows "10,000+"). A resource declaring
 *   `estimatedTotal: false` always counts exactly. A first page with fewer rows than its size holds the
 *   whole list: its total is its rows and nothing is counted (the count runs after the rows, only when they
 *   fill the page).
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
 *   visit to a deep page still walks past every row before it (by id alone, execute.ts `skipping`). A page whose plain
 *   read skips ANCHOR_MIN_WALK rows or more leaves, per process, the sort keys and positions of its first and
 *   last rows for its query (what a cursor's fingerprint holds but the page size). A later page of that query
 *   reads from the nearest of them when that walks less than the plain way: forward `WHERE (sort, id) >=
 *   keys` with the short OFFSET to the page, or backward in the reversed order with `<=` and the rows
 *   flipped back, through the same deferred join. So the revisited page and its neighbours cost
 *   about a cursor page, with exactly the rows of the plain OFFSET. Any write to the table (NOTIFY
 *   `table_changes` from the triggers of migration 0111) forgets them first; a read through a position while
 *   a change came in is read again the plain way.
 */

/**
 * Reads the page `q` asks for (by `cursor`, or by `page`), with its total and the next page's cursor: what
 * is known before reading (the cursor, the total when the plan depends on it, the remembered positions)
 * goes to the planner (plan.ts), whose one plan the executor (execute.ts) runs. Example:
 * `const page = await readPage(db, gadgets, parseListQuery(gadgets, { page: '400' }))`.
 */
export async function readPage(db: Queryable, resource: Resource, q: ListQuery): Promise<Page> {
  const cursor = q.cursor ? decodeCursor(resource, q, q.cursor) : null;
  // Taken before the first statement: a table change heard from here on stores no anchors.
  const scope = cursor || q.page === 1 ? null : anchorScope(db, resource, q);
  const total = needsTotalToPlan(resource, q) ? await countRows(db, resource, q) : null;
  const plan = planPage(resource, q, { cursor, total, anchors: anchorsKnown(scope) });
  return executePlan(db, resource, q, plan, scope);
}
