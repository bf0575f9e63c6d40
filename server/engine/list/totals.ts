import type { Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { ident } from '../schema/fields.ts';
import { queryPrepared } from './prepared.ts';
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
 * The total of a list: the planner's estimate for an unfiltered list of a big table, and for a filter the
 * planner expects to match ESTIMATE_FLOOR rows or more (filterEstimate); a count stopped at COUNT_CAP
 * otherwise (exact below it); an exact count for `estimatedTotal: false` resources. A list narrowed by the
 * caller's row scope (`isScoped`) is always counted.
 */
export async function countRows(db: Queryable, resource: Resource, q: ListQuery): Promise<Total> {
  const table = ident(resource.table);
  const exact = resource.options.estimatedTotal === false;
  if (!exact && !q.isScoped) {
    const n = await plannerEstimate(db, resource.table);
    if (n >= ESTIMATE_FLOOR && !q.hasFilter) return { total: n, isEstimate: true, isCapped: false };
    // A table smaller than the floor has no filter matching more: the EXPLAIN is not even asked.
    if (n >= ESTIMATE_FLOOR) {
      const matching = await filterEstimate(db, resource, q);
      if (matching >= ESTIMATE_FLOOR)
        return { total: roundEstimate(matching), isEstimate: true, isCapped: false };
    }
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
 * The rows the planner expects the list's whole WHERE to match (EXPLAIN's row estimate of the count's
 * statement, with the query's values): the filter and the trash's predicate are both part of what it
 * estimates. An unselective search (a third of a million rows) costs this instead of a count that reads
 * COUNT_CAP matches out of a trigram bitmap of all of them (124 ms at 1M rows, issue 37).
 */
async function filterEstimate(db: Queryable, resource: Resource, q: ListQuery): Promise<number> {
  const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${ident(resource.table)} ${q.where}`,
    q.params,
  );
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Number(plan?.[0]?.Plan?.['Plan Rows'] ?? -1);
}

/** An estimate to two significant digits (12,345 -> 12,000): no more precise than it is. */
export function roundEstimate(n: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, n))) - 1);
  return Math.round(n / unit) * unit;
}

/**
 * How many rows the planner thinks a table has now: the density ANALYZE measured (`reltuples / relpages`)
 * times the table's current size in pages, as the planner itself scales it; -1 when never analyzed.
 */
async function plannerEstimate(db: Queryable, table: string): Promise<number> {
  // One plan for every table (a catalogue lookup by oid): prepared once per connection (prepared.ts).
  const { rows } = await queryPrepared<{ n: string | number | null }>(db, ESTIMATE_SQL, [ident(table)]);
  return Number(rows[0]?.n ?? -1);
}

const ESTIMATE_SQL = `SELECT (CASE WHEN c.reltuples < 0 THEN -1
                  WHEN c.relpages = 0 THEN c.reltuples
                  ELSE c.reltuples / c.relpages
                       * (pg_relation_size(c.oid) / current_setting('block_size')::int) END)::bigint AS n
       FROM pg_class c WHERE c.oid = to_regclass($1)`;
