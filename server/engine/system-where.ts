import type { Resource } from '../../resources/define.ts';
import { ident } from './schema/fields.ts';

// The conditions of the engine's system seam (system-access.ts), rendered to SQL: column names come from
// code, never from a request; every value travels as a parameter.

/** The database's clock (`now()`), as a value to compare with or to set. */
export const NOW: unique symbol = Symbol('now()');

export type Row = Record<string, unknown>;

/**
 * A condition on one column: a value (`= $n`; null is IS NULL), or `{ in }`, `{ not }` (null: IS NOT NULL),
 * `{ ci }` (equal ignoring case), `{ gt }`, `{ gte }`, `{ lt }`, `{ like }` (ILIKE, the caller escapes the
 * pattern), `{ startsWith }`, `{ among }` (a value of another table's column). Several keys in one object must all hold; `{ or: [where, ...] }` at the top
 * level holds when any of its conditions does.
 */
export type Condition =
  | unknown
  | { in: readonly unknown[] }
  | { not: unknown }
  | { ci: string }
  | { gt: unknown }
  | { gte: unknown }
  | { lt: unknown }
  | { like: string }
  | { startsWith: string }
  | { among: Among };

/** `column IN (SELECT <column> FROM <resource's table> WHERE <where>)`: a value another table holds. */
export interface Among {
  resource: Resource;
  column: string;
  where?: Where;
}
export type Where = { [column: string]: Condition } & { or?: readonly Where[] };

const OPERATORS: Record<string, string> = { gt: '>', gte: '>=', lt: '<' };

export function whereSql(where: Where, params: unknown[], prefix = ''): string {
  const parts = conditions(where, params, prefix);
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

function conditions(where: Where, params: unknown[], prefix: string): string[] {
  const parts: string[] = [];
  for (const [column, condition] of Object.entries(where)) {
    if (column === 'or') {
      const any = (condition as Where[]).map((w) => conditions(w, params, prefix).join(' AND ') || 'TRUE');
      parts.push(`(${any.map((p) => `(${p})`).join(' OR ') || 'FALSE'})`);
      continue;
    }
    const col = `${prefix}${ident(column)}`;
    parts.push(conditionSql(col, condition, params));
  }
  return parts;
}

function conditionSql(col: string, condition: unknown, params: unknown[]): string {
  if (condition === null) return `${col} IS NULL`;
  if (!isOperator(condition)) return `${col} = ${valueSql(condition, params)}`;
  const [[op, value]] = Object.entries(condition) as [[string, unknown]];
  if (op === 'in') {
    const list = value as unknown[];
    return list.length ? `${col} IN (${list.map((v) => valueSql(v, params)).join(', ')})` : 'FALSE';
  }
  if (op === 'not')
    return value === null ? `${col} IS NOT NULL` : `${col} IS DISTINCT FROM ${valueSql(value, params)}`;
  if (op === 'among') {
    const { resource, column, where = {} } = value as Among;
    return `${col} IN (SELECT ${ident(column)} FROM ${ident(resource.table)}${whereSql(where, params)})`;
  }
  if (op === 'ci') return `lower(${col}) = lower(${valueSql(value, params)})`;
  if (op === 'like') return `${col} ILIKE ${valueSql(value, params)}`;
  if (op === 'startsWith')
    return `${col} LIKE ${valueSql(`${String(value).replace(/[\\%_]/g, '\\$&')}%`, params)}`;
  return `${col} ${OPERATORS[op]} ${valueSql(value, params)}`;
}

function isOperator(condition: unknown): condition is Record<string, unknown> {
  if (typeof condition !== 'object' || condition === null || condition instanceof Date) return false;
  const keys = Object.keys(condition);
  return (
    keys.length === 1 &&
    ['in', 'not', 'ci', 'gt', 'gte', 'lt', 'like', 'startsWith', 'among'].includes(keys[0]!)
  );
}

export function valueSql(value: unknown, params: unknown[]): string {
  if (value === NOW) return 'now()';
  params.push(value);
  return `$${params.length}`;
}
