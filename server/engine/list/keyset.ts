import type { Resource } from '../../../resources/define.ts';
import { ident } from '../schema/fields.ts';
import type { SortKey } from './query.ts';

/** The column holding each row's sort keys as text (read for cursors and anchors, never sent). */
export const KEYS = '__keys';

/** A row's sort keys, as the KEYS column read them. */
export function keysOf(row: Record<string, unknown>): (string | null)[] {
  return JSON.parse(row[KEYS] as string) as (string | null)[];
}

/**
 * `json_build_array(("t"."name")::text, ("t"."id")::text)::text AS "__keys"`: a row's sort keys as text (exact
 * for every type), in one JSON text that `keysOf` parses. Every row of a page carries it, but only the rows a
 * cursor or an anchor is taken from are parsed (two or three a page): a `text[]` was parsed by the driver for
 * every row, an array allocated per row for nothing (issue 37, item 2).
 */
export function keysColumn(order: readonly SortKey[]): string {
  return `json_build_array(${order.map((o) => `(${o.sql})::text`).join(', ')})::text AS ${ident(KEYS)}`;
}

/** One sort column of a keyset predicate: its name, direction, whether it holds NULLs, its bound key. */
interface KeyColumn {
  col: string;
  desc: boolean;
  isNullable: boolean;
  value: string | null;
}

/**
 * Rows strictly after `keys` in `order` (PostgreSQL's default NULLS LAST ascending, NULLS FIRST
 * descending), or from the row with those keys on (`inclusive`). One direction and no NULL possible: a row
 * comparison an index on the sort columns serves; otherwise the lexicographic chain
 * `a > x OR (a = x AND id > y)` with NULLs placed as ORDER BY places them.
 */
export function keysetPredicate(
  _resource: Resource,
  order: readonly SortKey[],
  keys: readonly (string | null)[],
  bind: (value: unknown) => string,
  inclusive = false,
): string {
  const values = keys.map((k) => (k === null ? null : bind(k)));
  const columns: KeyColumn[] = order.map((o, i) => ({
    col: o.sql,
    desc: o.desc,
    isNullable: o.isNullable,
    value: values[i]!,
  }));
  const isRowComparable = columns.every(
    (c) => c.desc === columns[0]!.desc && c.value !== null && !c.isNullable,
  );
  return isRowComparable ? rowComparison(columns, inclusive) : lexicographicChain(columns, inclusive);
}

function rowComparison(columns: readonly KeyColumn[], inclusive: boolean): string {
  const op = `${columns[0]!.desc ? '<' : '>'}${inclusive ? '=' : ''}`;
  if (columns.length === 1) return `${columns[0]!.col} ${op} ${columns[0]!.value}`;
  return `(${columns.map((c) => c.col).join(', ')}) ${op} (${columns.map((c) => c.value).join(', ')})`;
}

function lexicographicChain(columns: readonly KeyColumn[], inclusive: boolean): string {
  const terms = columns.map((c, i) => {
    const equal = columns
      .slice(0, i)
      .map((p) => (p.value === null ? `${p.col} IS NULL` : `${p.col} = ${p.value}`));
    // `inclusive`: the last column (the id) may also equal its key, which takes in the row itself.
    const eq = inclusive && i === columns.length - 1 ? '=' : '';
    return `(${[...equal, pastKey(c, eq)].join(' AND ')})`;
  });
  const bound = firstColumnBound(columns[0]!);
  const chain = terms.join(' OR ');
  return bound ? `${bound} AND (${chain})` : chain;
}

/** The rows past `c`'s key in its column (`eq` '=': or at it), NULLs placed as ORDER BY places them. */
function pastKey(c: KeyColumn, eq: '' | '='): string {
  if (c.value === null) return c.desc ? `${c.col} IS NOT NULL` : 'FALSE';
  if (c.desc) return `${c.col} <${eq} ${c.value}`;
  return c.isNullable ? `(${c.col} >${eq} ${c.value} OR ${c.col} IS NULL)` : `${c.col} >${eq} ${c.value}`;
}

/**
 * A bound on the first column that an index scan can start from (the chain alone would be a filter over
 * the whole index): every row after the keys has its first column at or past the key's (descending, NULLs
 * come first, so before it; ascending after a NULL, only NULLs follow).
 */
function firstColumnBound(c: KeyColumn): string | null {
  if (c.value === null) return c.desc ? null : `${c.col} IS NULL`;
  if (c.desc) return `${c.col} <= ${c.value}`;
  return c.isNullable ? null : `${c.col} >= ${c.value}`;
}
