import type { z } from 'zod';
import { searchConditions, type Condition, type FieldMeta, type Resource } from '../../resources/define.ts';

/** What the engine makes of one zod field: its kind picks the column type, the parser and the CSV format. */
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
  /** Stored in the resource's own table (everything but many-to-many). */
  isColumn: boolean;
}

interface ZodDefLike {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  format?: string;
  checks?: { _zod: { def: { check?: string; format?: string; maximum?: number } } }[];
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
    conditions: searchConditions(meta),
    isColumn: kind !== 'references',
  };
}

function kindOf(node: z.ZodType, meta: FieldMeta): FieldKind {
  if (meta.relation?.kind === 'belongsTo') return 'reference';
  if (meta.relation?.kind === 'manyToMany') return 'references';
  const def = defOf(node);
  if (def.type === 'union') {
    // `state`-style unions (boolean | 1 | 0) are booleans; other unions fall back to their first member.
    const kinds = (def.options ?? []).map((o) => kindOf(o, {}));
    if (kinds.includes('boolean')) return 'boolean';
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

function literalValues(node: z.ZodType): string[] {
  const def = defOf(node) as ZodDefLike & { values?: unknown[] };
  return def.type === 'literal' ? (def.values ?? []).map(String) : [];
}

/** Singular of a snake_case table name for join-table columns: `gadgets` -> `gadget`, `staff` -> `staff`. */
export function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('ss') || !name.endsWith('s')) return name;
  return name.slice(0, -1);
}

/** Where a many-to-many field lives: `role_ids` on `staff` -> staff_roles (staff_id, role_id). */
export function joinTableOf(
  resource: Resource,
  field: FieldInfo,
): { table: string; ownerColumn: string; targetColumn: string; targetTable: string } {
  const relation = field.meta.relation as { kind: 'manyToMany'; resource: string; through?: string };
  return {
    table: relation.through ?? `${resource.table}_${relation.resource}`,
    ownerColumn: `${singular(resource.table)}_id`,
    targetColumn: field.name.replace(/_ids$/, '_id'),
    targetTable: relation.resource,
  };
}

/** The include name of a relation field: `department_id` -> `department`, `role_ids` -> `roles`. */
export function includeNameOf(field: FieldInfo): string {
  return field.kind === 'reference' ? field.name.replace(/_id$/, '') : field.name.replace(/_ids$/, 's');
}

/** Double-quoted SQL identifier. Only ever called with names that come from a resource declaration. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
