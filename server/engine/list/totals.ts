import type { Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { ident } from '../schema/fields.ts';
import type { ListQuery } from './query.ts';

/** Below this many rows an estimate is replaced by an exact count (cheap there, and never visibly wrong). */
export const ESTIMATE_FLOOR = 10_000;
/** Filtered (and not yet analyzed) lists count at most this many rows; past it the total is "10,000+". */
export const COUNT_CAP = 10_000;

export interface Total {
  total: number;
  isEstimate: boolean;
  isCapped: boolean;
}

/**
 * A `like` term shorter than trigrams serve (query.ts `shortLike`) is not counted: no index can answer it,
 * so each keystroke of a search box would scan the table. Its total is what the pages read so far show
 * (seenSoFar). A resource declaring `estimatedTotal: false` still counts exactly.
 */
export function isUncounted(resource: Resource, q: ListQuery): boolean {
  return q.shortLike && resource.options.estimatedTotal !== false;
}

/**
 * The total known from reading page `page` (`fetched` rows of at most size + 1): exact on the last page,
 * else the rows up to this page's end, capped (the UI shows "N+").
 */
export function seenSoFar(q: ListQuery, page: number, fetched: number): Total {
  const before = (page - 1) * q.size;
  return fetched > q.size
    ? { total: before + q.size, isEstimate: false, isCapped: true }
    : { total: before + fetched, isEstimate: false, isCapped: false };
}

/**
 * The total of a list: the planner's estimate for an unfiltered list of a big table, a count stopped at
 * COUNT_CAP otherwise (exact below it), an exact count for `estimatedTotal: false` resources.
 */
export async function countRows(db: Queryable, resource: Resource, q: ListQuery): Promise<Total> {
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
