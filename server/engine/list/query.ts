import type { Condition, Resource } from '../../../resources/define.ts';
import { AppError } from '../../core/errors.ts';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  defaultSortOf,
  isIdString,
  maxPageSizeOf,
  searchableFields,
  sortableFields,
} from '../../../resources/fields.ts';
import {
  fieldsOf,
  ident,
  includeNameOf,
  joinTableOf,
  type FieldInfo,
  type FieldKind,
} from '../schema/fields.ts';
import type { ResourceHooks } from '../hooks.ts';
import { computedSql, fieldValueSql } from './computed.ts';
import {
  NO_CONTEXT,
  RELATED_ALIAS,
  relatedConditionSql,
  relatedValueSql,
  type ListContext,
  type RelatedField,
} from './related.ts';

/**
 * The contract's list query language, parsed in one place: `search`, `searchFields`, `searchJoin`, `q`,
 * `orderBy`/`sortedBy`, `page`/`size` and `include`. Inside a `search` value a literal `;`, `:` or `,` is
 * written `\;`, `\:`, `\,` and a backslash `\\` (contract amendment); `q=<text>` looks for the text in every
 * `like`-searchable field (OR among them, AND with the `search` pairs). Only fields the resource declares
 * searchable or sortable are accepted (anything else is a 422 naming the field); identifiers come from the
 * declaration and are quoted, values are always bound parameters. Example:
 * `const q = parseListQuery(gadgets, { search: 'name:li', searchFields: 'name:like' }, registry)`
 * -> `{ where: 'WHERE "name"::text ILIKE $1', params: ['%li%'], orderBy: 'ORDER BY "gadgets"."id" DESC', ... }`
 */
export interface ListQuery {
  /** `WHERE ...` or ''. Placeholders are $1..$n. */
  where: string;
  params: unknown[];
  /** `ORDER BY ...`, always ending in the id so pages are stable. */
  orderBy: string;
  /** The same order as a list (the id last), for keyset paging (keyset.ts). */
  order: SortKey[];
  page: number;
  /** `cursor=<next_cursor>` as given (checked by cursor.ts), or null. */
  cursor: string | null;
  size: number;
  /** Relation names to embed (validated). */
  includes: string[];
  hasFilter: boolean;
  /**
   * The caller's row scope narrows `where` (scope.ts scopeList): the total is counted, never estimated (the
   * planner's statistics cover rows outside the scope).
   */
  isScoped?: boolean;
  /**
   * A `like` term (or `q`) is shorter than TRIGRAM_MIN_LENGTH: no trigram index can serve it, so counting
   * its matches scans the table. The list count caps (or skips) such a count instead of scanning per keystroke.
   */
  shortLike: boolean;
  /**
   * The tables `where` reads besides the resource's own (the join tables of many-to-many conditions), or
   * null when a resource's filter hook wrote SQL of its own (it may read anything, even the clock). Remembered
   * page positions (anchors.ts) are kept only for lists whose every input is known.
   */
  reads: string[] | null;
}

/** pg_trgm indexes serve a `%term%` search from 3 characters on; a shorter term is a scan. */
export const TRIGRAM_MIN_LENGTH = 3;

export type RawQuery = Record<string, unknown>;

const NONE_HIDDEN: ReadonlySet<string> = new Set();

/**
 * One `ORDER BY` term: a sortable field (a column, or a related field `department.name`), its direction,
 * the SQL of its value (qualified with the table, text in the request's collation: related.ts) and whether
 * that value may be NULL (a related value always may).
 */
export interface SortKey {
  field: string;
  desc: boolean;
  sql: string;
  isNullable: boolean;
  /**
   * A related sort: the field, and the SQL of its value on the target's row itself (alias `r`, collated as
   * `sql`), which the joined read of related.ts relatedPageSql orders by through the target's index.
   */
  related?: { field: RelatedField; targetSql: string };
}

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };

/** A resource's custom search SQL per field (its `filters` hook, hooks.ts). */
export type SearchFilters = NonNullable<ResourceHooks['filters']>;

/**
 * Parses the list parameters; `paged: false` (export) ignores page/size; `filters` are the resource's custom
 * search SQL (its hooks). Throws AppError 422.
 */
export function parseListQuery(
  resource: Resource,
  raw: RawQuery,
  {
    paged = true,
    filters = {},
    hidden = NONE_HIDDEN,
    context = NO_CONTEXT,
  }: {
    paged?: boolean;
    /** The request's collation and the related fields the caller may use (related.ts `listContext`). */
    context?: ListContext;
    filters?: SearchFilters;
    /** The fields the caller may not see (field-access.ts): to the query they do not exist (422). */
    hidden?: ReadonlySet<string>;
  } = {},
): ListQuery {
  const params: unknown[] = [];
  let shortLike = false;
  const bind = (value: unknown) => {
    params.push(value);
    // Like patterns are bound as `%term%` (escaped): the term's length decides whether trigrams serve it.
    if (typeof value === 'string' && /^%[\s\S]*%$/.test(value) && likeTermLength(value) < TRIGRAM_MIN_LENGTH)
      shortLike = true;
    return `$${params.length}`;
  };
  const conditions = parseConditions(resource, raw, filters, hidden, context);
  const join = one(raw, 'searchJoin')?.toLowerCase() || 'and';
  if (join !== 'and' && join !== 'or') throw queryError('searchJoin', 'engine.query.bad_join', join);
  const clauses = conditions.map((c) => c.toSql(bind));
  const text = one(raw, 'q')?.trim();
  const inText = text ? likeEverywhere(resource, text, filters, hidden) : null;
  const everywhere = inText ? inText.toSql(bind) : null;
  const parts = inText ? [...conditions, inText] : conditions;
  const order = parseOrder(resource, raw, hidden, context);
  // A related sort reads its target's table: a change there moves rows, as a filter's table would.
  const sortReads = order.flatMap((o) => context.related.get(o.field)?.targetTable ?? []);
  const reads = parts.some((c) => c.reads === null)
    ? null
    : [...new Set([...parts.flatMap((c) => c.reads!), ...sortReads])];
  const joined = clauses.map((c) => `(${c})`).join(` ${join.toUpperCase()} `);
  let where = clauses.length ? `WHERE ${joined}` : '';
  if (everywhere) where = clauses.length ? `WHERE (${everywhere}) AND (${joined})` : `WHERE (${everywhere})`;
  const maxSize = maxPageSizeOf(resource);
  const cursor = paged ? one(raw, 'cursor')?.trim() || null : null;
  return {
    where,
    params,
    orderBy: orderBySql(order),
    order,
    cursor,
    page: paged ? parseIntParam(raw, 'page', 1, 1, Number.MAX_SAFE_INTEGER) : 1,
    size: paged ? pageSize(raw, maxSize) : 0,
    includes: parseIncludes(resource, raw, hidden),
    hasFilter: clauses.length > 0 || everywhere !== null,
    shortLike,
    reads,
  };
}

/** Characters of the term in a bound `%term%` pattern (escapes undone). */
function likeTermLength(pattern: string): number {
  return [...pattern.slice(1, -1).replace(/\\([\\%_])/g, '$1')].length;
}

/** The relation names `include` accepts for a resource. */
export function includeNames(resource: Resource): string[] {
  const relations = fieldsOf(resource)
    .filter((f) => f.kind === 'reference' || f.kind === 'references')
    .map(includeNameOf);
  return [...relations, ...Object.keys(resource.options.hasMany ?? {})];
}

interface ParsedCondition {
  toSql(bind: (v: unknown) => string): string;
  /** Other tables the clause reads; null: unknown (a filter hook's own SQL). */
  reads: string[] | null;
}

/** Search value parsers by kind: the raw text -> a bound value, or undefined when it is not valid. */
const VALUE_PARSERS: Record<FieldKind, (raw: string) => unknown> = {
  string: (v) => v,
  text: (v) => v,
  email: (v) => v,
  url: (v) => v,
  enum: (v) => v,
  json: () => undefined,
  // Integers are checked against their column's range by parseValues (intRange).
  int: (v) => (!/^-?\d{1,19}$/.test(v) ? undefined : Number.isSafeInteger(Number(v)) ? Number(v) : v),
  number: (v) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined),
  boolean: (v) => ({ true: true, '1': true, false: false, '0': false })[v.toLowerCase()],
  date: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? v : undefined),
  datetime: (v) => (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? v : undefined),
  reference: (v) => (isIdString(v) ? v : undefined),
  references: (v) => (isIdString(v) ? v : undefined),
};

const TEXT_KINDS = new Set<FieldKind>(['string', 'text', 'email', 'url', 'enum']);

/** SQL per condition: column expression + parsed values -> clause. */
const CONDITION_SQL: Record<
  Condition,
  (col: string, values: unknown[], bind: (v: unknown) => string) => string
> = {
  '=': (col, [v], bind) => `${col} = ${bind(v)}`,
  '<>': (col, [v], bind) => `${col} IS DISTINCT FROM ${bind(v)}`,
  '>=': (col, [v], bind) => `${col} >= ${bind(v)}`,
  '<=': (col, [v], bind) => `${col} <= ${bind(v)}`,
  like: (col, [v], bind) => `${col}::text ILIKE ${bind(`%${escapeLike(String(v))}%`)}`,
  in: (col, values, bind) => `${col} IN (${values.map(bind).join(', ')})`,
  between: (col, [a, b], bind) => `${col} BETWEEN ${bind(a)} AND ${bind(b)}`,
};

function parseConditions(
  resource: Resource,
  raw: RawQuery,
  filters: SearchFilters,
  hidden: ReadonlySet<string>,
  context: ListContext,
): ParsedCondition[] {
  const search = pairs(one(raw, 'search'));
  const chosenPairs = pairs(one(raw, 'searchFields'));
  const chosen = new Map(chosenPairs.map(([f, c]) => [f, c]));
  for (const name of chosen.keys()) searchable(resource, name, hidden, context);
  // A field named twice is refused (l5 would keep the last value silently; `in` says "any of these").
  for (const list of [search.filter(([name]) => name !== ''), chosenPairs]) {
    const seen = new Set<string>();
    for (const [name] of list) {
      if (seen.has(name)) throw queryError(name, 'engine.query.repeated_field', name);
      seen.add(name);
    }
  }
  const out: ParsedCondition[] = [];
  for (const [name, value] of search) {
    if (name === '') {
      const term = unescapeValue(value.trim());
      // As in l5: with searchFields, a bare term is looked for in those fields only, each with its condition.
      out.push(
        chosen.size
          ? inChosenFields(resource, chosen, term, filters, hidden, context)
          : anyField(resource, term, hidden),
      );
      continue;
    }
    const target = searchable(resource, name, hidden, context);
    const condition = (chosen.get(name) || target.conditions[0]) as Condition;
    if (!target.conditions.includes(condition))
      throw queryError(name, 'engine.query.bad_condition', name, { condition });
    const values = parseValues(name, target.kind, condition, value, target.info);
    const reads = conditionReads(resource, target, filters);
    out.push({ toSql: (bind) => conditionSql(resource, target, condition, values, bind, filters), reads });
  }
  return out;
}

function conditionSql(
  resource: Resource,
  target: { name: string; kind: FieldKind; info?: FieldInfo; related?: RelatedField },
  condition: Condition,
  values: unknown[],
  bind: (v: unknown) => string,
  filters: SearchFilters,
): string {
  if (target.related) {
    const column = `${RELATED_ALIAS}.${ident(target.related.column)}`;
    return relatedConditionSql(
      resource.table,
      target.related,
      CONDITION_SQL[condition](column, values, bind),
    );
  }
  if (target.kind === 'references' && target.info) {
    // many-to-many: records linked to the given ids.
    const j = joinTableOf(resource, target.info);
    const inner = CONDITION_SQL[condition === '=' ? '=' : 'in'](`j.${ident(j.targetColumn)}`, values, bind);
    return `EXISTS (SELECT 1 FROM ${ident(j.table)} j WHERE j.${ident(j.ownerColumn)} = ${ident(resource.table)}."id" AND ${inner})`;
  }
  const custom = Object.hasOwn(filters, target.name) ? filters[target.name] : undefined;
  if (custom) return custom({ column: ident(target.name), condition, values, bind });
  const expression = target.info && computedSql(resource, target.info);
  return CONDITION_SQL[condition](expression ?? ident(target.name), values, bind);
}

/**
 * A bare `search=term` with `searchFields=a:like;b:=`: the term in each named field with its condition (the
 * field's first condition when none is given), OR among them, as l5-repository does. A term that is not a
 * valid value for one of the fields is a 422 naming it (`in` and `between` split it on `,`).
 */
function inChosenFields(
  resource: Resource,
  chosen: ReadonlyMap<string, string>,
  term: string,
  filters: SearchFilters,
  hidden: ReadonlySet<string>,
  context: ListContext,
): ParsedCondition {
  const parts = [...chosen].map(([name, given]) => {
    const target = searchable(resource, name, hidden, context);
    const condition = (given || target.conditions[0]) as Condition;
    if (!target.conditions.includes(condition))
      throw queryError(name, 'engine.query.bad_condition', name, { condition });
    const values = parseValues(name, target.kind, condition, term, target.info);
    const reads = conditionReads(resource, target, filters);
    return {
      reads,
      toSql: (bind: (v: unknown) => string) =>
        `(${conditionSql(resource, target, condition, values, bind, filters)})`,
    };
  });
  return {
    reads: parts.some((p) => p.reads === null) ? null : parts.flatMap((p) => p.reads!),
    toSql: (bind) => parts.map((p) => p.toSql(bind)).join(' OR '),
  };
}

/** A bare `search=term` looks for the term in every field whose default condition is `like`. */
function anyField(resource: Resource, value: string, hidden: ReadonlySet<string>): ParsedCondition {
  const fields = fieldsOf(resource).filter(
    (f) => f.conditions[0] === 'like' && TEXT_KINDS.has(f.kind) && !hidden.has(f.name),
  );
  if (fields.length === 0) throw queryError('search', 'engine.query.unknown_search_field', value);
  return {
    reads: [],
    toSql: (bind) => {
      const p = bind(`%${escapeLike(value)}%`);
      return fields.map((f) => `${computedSql(resource, f) ?? ident(f.name)}::text ILIKE ${p}`).join(' OR ');
    },
  };
}

/** The fields `q` searches: every readable column that declares `like` among its conditions. */
export function qFields(resource: Resource, hidden: ReadonlySet<string> = NONE_HIDDEN): FieldInfo[] {
  return fieldsOf(resource).filter(
    (f) =>
      f.conditions.includes('like') &&
      (f.isColumn || f.meta.computed?.by === 'sql') &&
      !f.meta.writeOnly &&
      TEXT_KINDS.has(f.kind) &&
      !hidden.has(f.name),
  );
}

/**
 * `q=<text>`: the text (taken literally, no escapes) in any `like`-searchable field, OR among them; a field
 * with a custom filter hook is searched through it, like a `search` pair would be. 422 when there is none.
 */
function likeEverywhere(
  resource: Resource,
  value: string,
  custom: SearchFilters,
  hidden: ReadonlySet<string>,
): ParsedCondition {
  const fields = qFields(resource, hidden);
  if (fields.length === 0) throw queryError('q', 'engine.query.unknown_search_field', 'q');
  return {
    reads: fields.some((f) => custom[f.name]) ? null : [],
    toSql: (bind) => {
      let shared: string | null = null;
      return fields
        .map((f) => {
          const hook = custom[f.name];
          if (hook) return `(${hook({ column: ident(f.name), condition: 'like', values: [value], bind })})`;
          shared ??= bind(`%${escapeLike(value)}%`);
          return `${computedSql(resource, f) ?? ident(f.name)}::text ILIKE ${shared}`;
        })
        .join(' OR ');
    },
  };
}

/** Other tables a condition reads (a many-to-many's join table, a related field's target), null: unknown. */
function conditionReads(resource: Resource, target: SearchTarget, filters: SearchFilters): string[] | null {
  if (target.related) return [target.related.targetTable];
  if (target.kind === 'references' && target.info) return [joinTableOf(resource, target.info).table];
  return Object.hasOwn(filters, target.name) && filters[target.name] ? null : [];
}

interface SearchTarget {
  name: string;
  kind: FieldKind;
  conditions: readonly Condition[];
  info?: FieldInfo;
  related?: RelatedField;
}

function searchable(
  resource: Resource,
  name: string,
  hidden: ReadonlySet<string>,
  context: ListContext,
): SearchTarget {
  const related = context.related.get(name);
  if (related?.conditions.length)
    return { name, kind: related.kind, conditions: related.conditions, related };
  const found = hidden.has(name) ? undefined : searchableFields(resource).get(name);
  if (!found) throw queryError(name, 'engine.query.unknown_search_field', name);
  return { name, ...found };
}

function parseValues(
  name: string,
  kind: FieldKind,
  condition: Condition,
  raw: string,
  info?: FieldInfo,
): unknown[] {
  const parts = condition === 'in' || condition === 'between' ? splitEscaped(raw, ',') : [raw];
  if (condition === 'between' && parts.length !== 2) throw queryError(name, 'engine.query.bad_between', name);
  const parse = condition === 'like' ? (v: string) => v : VALUE_PARSERS[kind];
  return parts.map((part) => {
    const value = parse(unescapeValue(part.trim()));
    if (value === undefined) throw queryError(name, 'engine.query.bad_value', name);
    const range = condition === 'like' ? null : info?.intRange;
    if (range && (BigInt(String(value)) < range.min || BigInt(String(value)) > range.max))
      throw queryError(name, 'engine.query.bad_value', name);
    return value;
  });
}

/**
 * `ORDER BY "t"."a" ASC, "t"."id" ASC`; `reverse` flips every term (the same rows, read from the other end).
 * Qualified with the table: a bare name would sort by a select-list column of that name (a date is selected
 * as `"d"::text AS "d"`), which no index on the column serves.
 */
export function orderBySql(order: readonly SortKey[], reverse = false): string {
  const terms = order.map((o) => `${o.sql} ${o.desc !== reverse ? 'DESC' : 'ASC'}`);
  return `ORDER BY ${terms.join(', ')}`;
}

/** Text sorts in the request's collation (related.ts textCollation): case-insensitive, pinyin under zh-CN. */
const COLLATED_KINDS = new Set<FieldKind>(['string', 'text', 'email', 'url']);

/** The SQL of a sort term's value: the column (or the related value), text in the request's collation. */
export function sortKeySql(resource: Resource, field: string, context: ListContext = NO_CONTEXT): string {
  const related = context.related.get(field);
  const kind = related ? related.kind : fieldsOf(resource).find((f) => f.name === field)?.kind;
  const value = related ? relatedValueSql(resource.table, related) : fieldValueSql(resource, field);
  return collated(value, kind, context);
}

function collated(value: string, kind: FieldKind | undefined, context: ListContext): string {
  return context.collation && kind && COLLATED_KINDS.has(kind)
    ? `${value} COLLATE ${ident(context.collation)}`
    : value;
}

function parseOrder(
  resource: Resource,
  raw: RawQuery,
  hidden: ReadonlySet<string>,
  context: ListContext,
): SortKey[] {
  const fields = split(one(raw, 'orderBy'), ';');
  const dirs = split(one(raw, 'sortedBy'), ';').map((d) => d.toLowerCase());
  for (const d of dirs)
    if (d !== 'asc' && d !== 'desc') throw queryError('sortedBy', 'engine.query.bad_direction', d);
  const declared = defaultSortOf(resource);
  // A default order on a field the caller may not see would give its values away: newest first instead.
  const fallback = hidden.has(declared.field) ? { field: 'id', order: 'desc' } : declared;
  const sortable = sortableFields(resource);
  for (const name of hidden) sortable.delete(name);
  for (const [path, f] of context.related) if (f.isSortable) sortable.add(path);
  const order = fields.length
    ? fields.map((f, i) => ({ field: f, order: dirs[i] ?? dirs[dirs.length - 1] ?? 'asc' }))
    : [fallback];
  for (const { field } of order) {
    if (!sortable.has(field)) throw queryError(field, 'engine.query.unknown_sort_field', field);
  }
  if (!order.some((o) => o.field === 'id'))
    order.push({ field: 'id', order: order[order.length - 1]!.order });
  // A field named twice sorts by its first mention only (a later mention could not change the order).
  const seen = new Set<string>();
  return order
    .filter((o) => !seen.has(o.field) && seen.add(o.field))
    .map((o) => {
      const related = context.related.get(o.field);
      const key: SortKey = {
        field: o.field,
        desc: o.order === 'desc',
        sql: sortKeySql(resource, o.field, context),
        isNullable:
          related !== undefined ||
          (o.field !== 'id' && (fieldsOf(resource).find((f) => f.name === o.field)?.isNullable ?? false)),
      };
      if (related) {
        const targetSql = collated(`${RELATED_ALIAS}.${ident(related.column)}`, related.kind, context);
        key.related = { field: related, targetSql };
      }
      return key;
    });
}

function parseIncludes(resource: Resource, raw: RawQuery, hidden: ReadonlySet<string>): string[] {
  const wanted = split(one(raw, 'include'), ',');
  const known = fieldsOf(resource)
    .filter((f) => hidden.has(f.name) && (f.kind === 'reference' || f.kind === 'references'))
    .map(includeNameOf)
    .reduce((names, gone) => names.filter((n) => n !== gone), includeNames(resource));
  for (const name of wanted)
    if (!known.includes(name)) throw queryError(name, 'engine.query.unknown_include', name);
  return [...new Set(wanted)];
}

/**
 * `size`, or l5-repository's `limit` for the same thing (refused when both are given and differ, never
 * ignored).
 */
function pageSize(raw: RawQuery, maxSize: number): number {
  const size = parseIntParam(raw, 'size', DEFAULT_PAGE_SIZE, 1, maxSize);
  if (one(raw, 'limit') === undefined || one(raw, 'limit') === '') return size;
  const limit = parseIntParam(raw, 'limit', DEFAULT_PAGE_SIZE, 1, maxSize);
  const hasSize = one(raw, 'size') !== undefined && one(raw, 'size') !== '';
  if (hasSize && size !== limit) throw queryError('limit', 'engine.query.limit_and_size', 'limit');
  return limit;
}

function parseIntParam(raw: RawQuery, key: string, fallback: number, min: number, max: number): number {
  const value = one(raw, key);
  if (value === undefined || value === '') return fallback;
  const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw queryError(key, 'engine.query.bad_range', key, { min, max });
  return n;
}

/**
 * `a:1;b:2` -> [['a','1'],['b','2']]; empty values are dropped (spec); a bare term has the name ''. Splits on
 * the unescaped `;` and the first unescaped `:`; values keep their escapes (parseValues undoes them after
 * splitting `in`/`between` lists on the unescaped `,`).
 */
function pairs(text: string | undefined): [string, string][] {
  return splitEscaped(text ?? '', ';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): [string, string] => {
      const colon = unescapedIndex(part, ':');
      return colon < 0 ? ['', part] : [part.slice(0, colon).trim(), part.slice(colon + 1)];
    })
    .filter(([, value]) => value.trim() !== '');
}

/** Splits on `sep` where it is not escaped by a backslash; the parts keep their escapes. */
export function splitEscaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === sep) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The index of the first `char` not escaped by a backslash; -1 when there is none. */
export function unescapedIndex(text: string, char: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === char) return i;
  }
  return -1;
}

/** `\;` `\:` `\,` `\\` -> the character; any other backslash is kept as it is (lenient for older clients). */
function unescapeValue(text: string): string {
  return text.replace(/\\([\\;:,])/g, '$1');
}

function split(text: string | undefined, sep: string): string[] {
  return (text ?? '')
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);
}

function one(raw: RawQuery, key: string): string | undefined {
  const value = raw[key];
  if (Array.isArray(value)) return value.map(String).join(key === 'include' ? ',' : ';');
  return value === undefined || value === null ? undefined : String(value);
}

/** `%`, `_` and the escape character itself match literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function queryError(field: string, key: string, name: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError(422, key, {
    params: { field: name.slice(0, 100), ...extra },
    fields: { [field.slice(0, 100)]: [`${key}_short`] },
  });
}
