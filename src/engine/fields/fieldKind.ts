import type * as z from 'zod';
import { describeField, unwrapSchema, type FieldKind as ModelKind } from '../../../resources/fields.ts';
import type { FieldMeta } from '../../../resources/meta.ts';

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
  | 'json'
  /** `money()`: minor units shown and typed in major units. */
  | 'money'
  /** `file()` / `image()`: an asset id, uploaded from the form. */
  | 'file'
  | 'image'
  /** `input: 'markdown'`: a long text with a preview. */
  | 'markdown';

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

/** The schema under optional/nullable/default/pipe wrappers (the input side of a transform). */
export const unwrap = unwrapSchema;

const BY_MODEL_KIND: Record<ModelKind, FieldKind> = {
  string: 'string',
  text: 'text',
  email: 'email',
  url: 'url',
  int: 'number',
  number: 'number',
  boolean: 'boolean',
  enum: 'enum',
  date: 'date',
  datetime: 'datetime',
  json: 'json',
  reference: 'belongsTo',
  references: 'manyToMany',
};

const BY_INPUT_HINT: Partial<Record<NonNullable<FieldMeta['input']>, FieldKind>> = {
  textarea: 'text',
  markdown: 'markdown',
  password: 'password',
  email: 'email',
  url: 'url',
};

/**
 * The screen kind of a field: the shared field model's kind (resources/fields.ts, the one the server reads
 * too) mapped through this side's table, after what only the screens distinguish: dictionaries, secrets
 * (password inputs), input hints, and lists (a JSON array is edited as an array).
 */
export function fieldKind(schema: z.ZodType, meta: FieldMeta): FieldKind {
  const isArray = defOf(unwrap(schema)).type === 'array';
  return screenKind(describeField('', schema, meta).kind, meta, isArray);
}

/** fieldKind's table, from the model kind and the metadata (what a resource descriptor carries). */
export function screenKind(model: ModelKind, meta: FieldMeta, isArray: boolean): FieldKind {
  if (meta.upload) return meta.upload;
  if (meta.relation) return meta.relation.kind;
  if (meta.money) return 'money';
  if (meta.dictionary) return 'dictionary';
  if (meta.writeOnly || meta.input === 'password') return 'password';
  const hinted = meta.input ? BY_INPUT_HINT[meta.input] : undefined;
  if (hinted) return hinted;
  if (model === 'json' && isArray) return 'array';
  return BY_MODEL_KIND[model];
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
