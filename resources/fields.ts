import type * as z from 'zod';
import { ID_MAX } from '../schemas/ids.ts';
import type { Resource } from './define.ts';
import { searchConditions, type Condition, type FieldMeta } from './meta.ts';

export { ID_MAX, isIdString } from '../schemas/ids.ts';

/**
 * The one field model of the engine: what each field of a resource is (kind, relation, dictionary, search
 * conditions, sortable, list, write/read rules, id and integer ranges, timestamps), derived once from the
 * resource's zod schema. The server engine (table, query language, validation, CSV) and the client engine
 * (screens, filters, sort) both read it; each side only maps `kind` through its own lookup tables
 * (server/engine/schema/snapshot.ts COLUMN_TYPES, server/engine/list/query.ts VALUE_PARSERS, src/engine/fields/fieldKind.ts).
 */
export type FieldKind =
  | 'string'
  | 'text'
  | 'email'
  | 'url'
  | 'int'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'datetime'
  | 'json'
  | 'reference'
  | 'references';

/** PostgreSQL `integer` and `bigint` ranges. */
export const INT4 = { min: -2147483648n, max: 2147483647n } as const;
export const INT8 = { min: -9223372036854775808n, max: ID_MAX } as const;

/**
 * Text PostgreSQL cannot store or that no client should send: a NUL character or an unpaired UTF-16
 * surrogate. Every string the API accepts is checked with this (server/core/hygiene.ts).
 */
export function isUnsafeText(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}

export interface FieldInfo {
  name: string;
  kind: FieldKind;
  schema: z.ZodType;
  meta: FieldMeta;
  /** The value may be null (nullable, or optional without a default): the column allows NULL. */
  isNullable: boolean;
  /** The client may leave it out on create. */
  isOptional: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
  enumValues: string[];
  conditions: readonly Condition[];
  /** Stored in the resource's own table (everything but many-to-many and computed fields). */
  isColumn: boolean;
  /** Allowed in `orderBy` (declared `sort`, a column, not write-only). */
  isSortable: boolean;
  /**
   * int: the values the column holds, the declared bounds narrowed to the column type's range. The column is
   * `integer` unless the declared bounds need more (then `bigint`; an id-like digit-string field is `bigint`).
   */
  intRange: { min: bigint; max: bigint; column: 'integer' | 'bigint' } | null;
}

interface ZodDefLike {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  format?: string;
  checks?: {
    _zod: { def: { check?: string; format?: string; maximum?: number; pattern?: RegExp } };
  }[];
  defaultValue?: unknown;
}

const defOf = (schema: z.ZodType): ZodDefLike =>
  (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;

/** zod string formats -> kinds; other formats stay plain strings. */
const STRING_FORMATS: Record<string, FieldKind> = {
  email: 'email',
  url: 'url',
  date: 'date',
  datetime: 'datetime',
};

/** zod base types -> kinds (after unwrapping optional/nullable/default/pipe). */
const BASE_KINDS: Record<string, FieldKind> = {
  string: 'string',
  number: 'number',
  int: 'int',
  bigint: 'int',
  boolean: 'boolean',
  enum: 'enum',
  literal: 'enum',
  date: 'datetime',
  object: 'json',
  array: 'json',
  record: 'json',
  tuple: 'json',
  any: 'json',
  unknown: 'json',
};

/** Wrappers that do not change what a field holds. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Describes every field of a resource (cached per resource). */
export function fieldsOf(resource: Resource): FieldInfo[] {
  let cached = cache.get(resource);
  if (!cached) {
    cached = resource.fields.map((f) => describeField(f.name, f.schema, f.meta));
    cache.set(resource, cached);
  }
  return cached;
}
const cache = new WeakMap<Resource, FieldInfo[]>();

export function fieldByName(resource: Resource, name: string): FieldInfo | undefined {
  return fieldsOf(resource).find((f) => f.name === name);
}

/** The schema under optional/nullable/default/pipe wrappers (the input side of a transform). */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else break;
  }
  return current;
}

export function describeField(name: string, schema: z.ZodType, meta: FieldMeta): FieldInfo {
  let node = schema;
  let isNullable = false;
  let isOptional = false;
  let hasDefault = false;
  let defaultValue: unknown;
  for (let depth = 0; depth < 20; depth++) {
    const def = defOf(node);
    if (def.type === 'optional') isOptional = true;
    else if (def.type === 'nullable') isNullable = true;
    else if (def.type === 'default' || def.type === 'prefault') {
      hasDefault = true;
      defaultValue = def.defaultValue;
    } else if (def.type === 'pipe') {
      node = def.in!;
      continue;
    } else if (!['readonly', 'catch', 'nonoptional'].includes(def.type)) break;
    node = def.innerType!;
  }
  const kind = kindOf(node, meta);
  const def = defOf(node);
  const enumValues = def.type === 'enum' ? Object.values(def.entries ?? {}).map(String) : literalValues(node);
  // A computed field has no column of its own; an SQL one still sorts and searches by its expression.
  const isColumn = kind !== 'references' && !meta.computed;
  // (`by` survives the JSON the client's descriptor is, the functions do not.)
  const isQueryable = kind !== 'references' && (!meta.computed || meta.computed.by === 'sql');
  return {
    name,
    kind,
    schema,
    meta,
    isNullable: isNullable || (isOptional && !hasDefault),
    isOptional: isOptional || hasDefault || isNullable,
    hasDefault,
    defaultValue,
    enumValues,
    conditions: meta.writeOnly || (meta.computed && !isQueryable) ? [] : searchConditions(meta),
    isColumn,
    isSortable: meta.sort === true && isQueryable && !meta.writeOnly,
    intRange: kind === 'int' ? intRangeOf(node) : null,
  };
}

function kindOf(node: z.ZodType, meta: FieldMeta): FieldKind {
  if (meta.relation?.kind === 'belongsTo') return 'reference';
  if (meta.relation?.kind === 'manyToMany') return 'references';
  const def = defOf(node);
  if (def.type === 'union') {
    // `state`-style unions (boolean | 1 | 0) are booleans; an id-like union (digit string | integer) is an
    // integer (a bigint column); other unions fall back to their first member.
    const kinds = (def.options ?? []).map((o) => kindOf(o, {}));
    if (kinds.includes('boolean')) return 'boolean';
    if (isIdLike(node)) return 'int';
    return kinds[0] ?? 'json';
  }
  if (def.type === 'string') {
    const formats = [def.format, ...(def.checks ?? []).map((c) => c._zod.def.format)];
    for (const f of formats) if (f && STRING_FORMATS[f]) return STRING_FORMATS[f];
    const max = (def.checks ?? []).find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
    const isLong = meta.input === 'textarea' || meta.input === 'markdown' || (max ?? 0) > 255;
    return isLong ? 'text' : 'string';
  }
  if (def.type === 'number') {
    const formats = [def.format, ...(def.checks ?? []).map((c) => c._zod.def.format)];
    return formats.some((f) => f && /int/.test(f)) ? 'int' : 'number';
  }
  return BASE_KINDS[def.type] ?? 'json';
}

/** A union of a digits-only string and an integer (`parent_id`-style ids kept in a plain bigint column). */
function isIdLike(node: z.ZodType): boolean {
  const options = defOf(node).options ?? [];
  const hasDigits = options.some((o) =>
    (defOf(o).checks ?? []).some((c) => c._zod.def.pattern && /^\^\\d/.test(c._zod.def.pattern.source)),
  );
  const hasInt = options.some((o) => kindOf(o, {}) === 'int');
  return hasDigits && hasInt && options.length === 2;
}

/** The declared bounds of an integer, narrowed to the range of the column type it is stored in. */
function intRangeOf(node: z.ZodType): FieldInfo['intRange'] {
  if (defOf(node).type === 'union') {
    const int = (defOf(node).options ?? []).find((o) => kindOf(o, {}) === 'int');
    const lower = int ? boundsOf(int).min : null;
    return { min: lower !== null && lower > 0n ? lower : 0n, max: ID_MAX, column: 'bigint' };
  }
  const { min, max } = boundsOf(node);
  const needsBigint = (max !== null && max > INT4.max) || (min !== null && min < INT4.min);
  const column = needsBigint ? INT8 : INT4;
  const lo = min === null || min < column.min ? column.min : min;
  const hi = max === null || max > column.max ? column.max : max;
  return { min: lo, max: hi, column: needsBigint ? 'bigint' : 'integer' };
}

/**
 * Explicitly declared bounds (`.min()`/`.max()`/`.nonnegative()`); zod's implicit safe-integer bounds of
 * `z.int()` do not count, so an unbounded `z.int()` is an `integer` column with that type's range.
 */
function boundsOf(node: z.ZodType): { min: bigint | null; max: bigint | null } {
  let min: bigint | null = null;
  let max: bigint | null = null;
  for (const c of defOf(node).checks ?? []) {
    const d = c._zod.def as { check?: string; value?: number | bigint; inclusive?: boolean };
    if (d.value === undefined || !Number.isFinite(Number(d.value))) continue;
    const v = BigInt(Math.trunc(Number(d.value)));
    if (d.check === 'greater_than') {
      const bound = d.inclusive ? v : v + 1n;
      if (min === null || bound > min) min = bound;
    } else if (d.check === 'less_than') {
      const bound = d.inclusive ? v : v - 1n;
      if (max === null || bound < max) max = bound;
    }
  }
  return { min, max };
}

function literalValues(node: z.ZodType): string[] {
  const def = defOf(node) as ZodDefLike & { values?: unknown[] };
  return def.type === 'literal' ? (def.values ?? []).map(String) : [];
}

/** Columns the engine adds: `id` always, `created_at`/`updated_at` when the resource has timestamps. */
export function systemFields(
  resource: Resource,
): Record<string, { kind: FieldKind; conditions: readonly Condition[] }> {
  const out: Record<string, { kind: FieldKind; conditions: readonly Condition[] }> = {
    id: { kind: 'reference', conditions: ['=', 'in', '<>', 'between', '>=', '<='] },
  };
  if (resource.timestamps) {
    out.created_at = { kind: 'datetime', conditions: ['between', '>=', '<='] };
    out.updated_at = { kind: 'datetime', conditions: ['between', '>=', '<='] };
  }
  return out;
}

/** Field names allowed in `orderBy`: `id`, the timestamps the table really has, and declared sortable fields. */
export function sortableFields(resource: Resource): Set<string> {
  return new Set([
    ...Object.keys(systemFields(resource)),
    ...fieldsOf(resource)
      .filter((f) => f.isSortable)
      .map((f) => f.name),
  ]);
}

/** Searchable fields with their conditions (the system columns the table has, then declared ones). */
export function searchableFields(
  resource: Resource,
): Map<string, { kind: FieldKind; conditions: readonly Condition[]; info?: FieldInfo }> {
  const out = new Map<string, { kind: FieldKind; conditions: readonly Condition[]; info?: FieldInfo }>(
    Object.entries(systemFields(resource)),
  );
  for (const f of fieldsOf(resource))
    if (f.conditions.length) out.set(f.name, { kind: f.kind, conditions: f.conditions, info: f });
  return out;
}

/** The default list order: the declared one, else `id desc`. */
export function defaultSortOf(resource: Resource): { field: string; order: 'asc' | 'desc' } {
  return resource.options.defaultSort ?? { field: 'id', order: 'desc' };
}

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 1000;

/** The largest page a list answers (and the most items of an inline list): `limits.maxPageSize`, at most 1000. */
export function maxPageSizeOf(resource: Resource): number {
  return Math.min(resource.options.limits?.maxPageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
}

/**
 * A field's schema with its column's limits added (an integer outside its column type's range is a 422
 * naming the field, not a database error). Server write schemas and client forms both apply it.
 */
export function withColumnLimits(f: FieldInfo, schema: z.ZodType): z.ZodType {
  const range = f.intRange;
  if (!range) return schema;
  return schema.superRefine((value, ctx) => {
    if (value === null || value === undefined) return;
    let n: bigint;
    try {
      n = BigInt(value as string | number);
    } catch {
      return;
    }
    if (n < range.min)
      ctx.addIssue({ code: 'custom', message: `validation.too_small|{"min":${String(range.min)}}` });
    else if (n > range.max)
      ctx.addIssue({ code: 'custom', message: `validation.too_big|{"max":${String(range.max)}}` });
  });
}

/** True when `value` (a string, or strings inside arrays/objects, keys included) holds unsafe text. */
export function holdsUnsafeText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isUnsafeText(value);
  if (depth > 32 || !value || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsUnsafeText(v, depth + 1));
  return Object.entries(value).some(([k, v]) => isUnsafeText(k) || holdsUnsafeText(v, depth + 1));
}

/**
 * A field's write schema: its column's limits (withColumnLimits) and input hygiene (no NUL, no unpaired
 * surrogate in any string it holds: a 422 naming the field). Whatever the input path (JSON body, CSV cell).
 */
export function writableField(f: FieldInfo, schema: z.ZodType): z.ZodType {
  return withColumnLimits(f, schema).superRefine((value, ctx) => {
    if (holdsUnsafeText(value)) ctx.addIssue({ code: 'custom', message: 'validation.bad_text' });
  });
}
