import type { z } from 'zod';
import type { FieldMeta } from '../../resources/define.ts';
import { metaOf } from '../../resources/define.ts';

/** What the screens need to know about a field to pick its Field and Input components. */
export type FieldKind =
  | 'string'
  | 'text'
  | 'email'
  | 'url'
  | 'password'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'datetime'
  | 'belongsTo'
  | 'manyToMany'
  | 'dictionary'
  | 'array'
  | 'json';

interface Def {
  type: string;
  format?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  checks?: { _zod: { def: { check?: string; format?: string; maximum?: number } } }[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const LONG_STRING = 255;

/** Wrappers that do not change what a field holds. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/**
 * A field's metadata, also when `field()` was applied before `.optional()` (the wrapper is a new schema, so
 * the registry only knows the inner one).
 */
export function metaDeep(schema: z.ZodType): FieldMeta {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    const meta = metaOf(current);
    if (Object.keys(meta).length) return meta;
    const def = defOf(current);
    const next = WRAPPERS.has(def.type) ? def.innerType : def.type === 'pipe' ? def.in : undefined;
    if (!next) return {};
    current = next;
  }
  return {};
}

/** The schema under optional/nullable/default/pipe wrappers (the input side of a transform). */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'lazy') break;
    else break;
  }
  return current;
}

const BY_ZOD_TYPE: Record<string, FieldKind> = {
  string: 'string',
  number: 'number',
  int: 'number',
  bigint: 'number',
  boolean: 'boolean',
  enum: 'enum',
  literal: 'enum',
  date: 'datetime',
  array: 'array',
  object: 'json',
  record: 'json',
};

const BY_STRING_FORMAT: Record<string, FieldKind> = {
  email: 'email',
  url: 'url',
  date: 'date',
  datetime: 'datetime',
};

const BY_INPUT_HINT: Partial<Record<NonNullable<FieldMeta['input']>, FieldKind>> = {
  textarea: 'text',
  markdown: 'text',
  password: 'password',
  email: 'email',
  url: 'url',
};

/**
 * The kind of a field, from its metadata first (relations, dictionaries, write-only, input hints) and then
 * from its zod type. `state`-like unions of boolean and 1/0 literals count as boolean.
 */
export function fieldKind(schema: z.ZodType, meta: FieldMeta): FieldKind {
  if (meta.relation) return meta.relation.kind;
  if (meta.dictionary) return 'dictionary';
  if (meta.writeOnly || meta.input === 'password') return 'password';
  const hinted = meta.input ? BY_INPUT_HINT[meta.input] : undefined;
  if (hinted) return hinted;
  return zodKind(unwrap(schema));
}

function zodKind(schema: z.ZodType): FieldKind {
  const def = defOf(schema);
  if (def.type === 'union') {
    const kinds = (def.options ?? []).map((option) => zodKind(unwrap(option)));
    if (kinds.includes('boolean')) return 'boolean';
    return kinds[0] ?? 'string';
  }
  if (def.type === 'string') {
    const format =
      def.format ?? def.checks?.find((c) => c._zod.def.check === 'string_format')?._zod.def.format;
    const max = def.checks?.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum ?? 0;
    // The server's rule too: a long string (`description: max(5000)`) is text, edited in a textarea.
    return (format && BY_STRING_FORMAT[format]) || (max > LONG_STRING ? 'text' : 'string');
  }
  return BY_ZOD_TYPE[def.type] ?? 'string';
}

/** The options of an enum (or literal) field, else an empty list. */
export function enumValues(schema: z.ZodType): string[] {
  const def = defOf(unwrap(schema));
  if (def.type === 'enum' && def.entries) return Object.values(def.entries).map(String);
  if (def.type === 'literal' && def.values) return def.values.map(String);
  return [];
}

/** True when a field must be filled in (the schema rejects a missing value). */
export function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success;
}
