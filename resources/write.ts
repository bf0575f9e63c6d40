import * as z from 'zod';
import type { Resource } from './define.ts';
import { fieldsOf, unwrapSchema, writableField, type FieldInfo } from './fields.ts';

/** Keys a client may echo back (react-admin sends whole records); they are dropped, never written. */
export const SYSTEM_KEYS = ['id', 'created_at', 'updated_at', 'created_by', 'updated_by', 'version'] as const;

const BOOLEAN_INPUTS: Record<string, boolean> = { '1': true, '0': false, true: true, false: false };

/**
 * The write schemas derived from a resource's zod schema, one copy for both sides: the server engine
 * validates bodies with them (through inline-lists.ts bodySchemas) and the client's forms check their payload
 * with the very same ones (src/engine/form/zodResolver.ts). Strict (unknown and read-only keys are a 422),
 * write-only fields accepted, booleans also as 1/0. `update` is partial and never fills in defaults. Both
 * take null for a field whose column is nullable (optional without a default): an edit can clear it, and a
 * client that sends null for a blank optional text or date is not refused (as an optional image is not).
 */
export function writeSchemas(resource: Resource): { create: z.ZodObject; update: z.ZodObject } {
  let cached = cache.get(resource);
  if (!cached) {
    const writable = fieldsOf(resource).filter((f) => !f.meta.readOnly);
    const create = Object.fromEntries(writable.map((f) => [f.name, clearable(f, accepting(f, f.schema))]));
    const update = Object.fromEntries(
      writable.map((f) => [f.name, clearable(f, accepting(f, withoutDefault(f.schema))).optional()]),
    );
    cached = { create: z.strictObject(create), update: z.strictObject(update) };
    cache.set(resource, cached);
  }
  return cached;
}
const cache = new WeakMap<Resource, { create: z.ZodObject; update: z.ZodObject }>();

/**
 * The resource's cross-field rules (a `.superRefine` or `.refine` on its schema, issue 35) added to a body
 * schema, so the server and the form run them with the same issues, each under the path it names:
 * `schema: z.object({ starts_on, ends_on }).superRefine((v, ctx) => { if (v.starts_on && v.ends_on &&
 * v.ends_on < v.starts_on) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'resources.x.errors.y' }) })`.
 * A rule runs once every field is valid, and on a partial update it sees only the keys sent.
 */
export function withRules<T extends z.ZodObject>(resource: Resource, schema: T): T {
  const checks = (resource.schema as unknown as { _zod: { def: { checks?: z.core.$ZodCheck[] } } })._zod.def
    .checks;
  return checks?.length ? (schema.check(...(checks as z.core.$ZodCheck<unknown>[])) as T) : schema;
}

/**
 * What a record looks like on the wire (for the OpenAPI document): every column key is answered (null when
 * empty; a field the caller's field access hides is left out), ids as digit strings.
 */
export function recordSchema(resource: Resource): z.ZodObject {
  const shape: Record<string, z.ZodType> = { id: z.string().regex(/^\d+$/) };
  for (const f of fieldsOf(resource)) if (!f.meta.writeOnly) shape[f.name] = wireField(f);
  // Who created and last wrote the record (user ids; null for older rows and the system's writes).
  shape.created_by = z.string().regex(/^\d+$/).nullable();
  shape.updated_by = z.string().regex(/^\d+$/).nullable();
  // 1 on create, +1 on every write; a PATCH naming an older one is a 409 (contract: "Nothing lost").
  shape.version = z.int().min(1);
  if (resource.timestamps) {
    shape.created_at = z.iso.datetime();
    shape.updated_at = z.iso.datetime();
  }
  return z.object(shape);
}

/** A field as answered: ids (references, id-like integers) are digit strings, never undefined. */
function wireField(f: FieldInfo): z.ZodType {
  const id = z.string().regex(/^\d+$/);
  // `parent_id`-style ids: a digit string or an integer, kept in a bigint column, answered as a string.
  const isIdLike = f.kind === 'int' && kindOfDef(unwrapSchema(f.schema)) === 'union';
  let schema: z.ZodType;
  if (f.kind === 'references') schema = z.array(id);
  else if (f.kind === 'reference' || isIdLike) schema = id;
  else schema = unwrapOptional(f.schema);
  return f.isNullable && !schema.safeParse(null).success ? schema.nullable() : schema;
}

const kindOfDef = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: { type: string } } })._zod.def.type;

/** The schema without optional/default wrappers (an answer always carries the key). */
function unwrapOptional(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    const def = (current as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
    if (def.type === 'optional') current = def.innerType!;
    else if ((def.type === 'default' || def.type === 'prefault') && def.innerType) current = def.innerType;
    else break;
  }
  return current;
}

/** Removes the system keys a client may send back with a record. */
export function withoutSystemKeys(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy = { ...(body as Record<string, unknown>) };
  for (const key of SYSTEM_KEYS) delete copy[key];
  return copy;
}

function accepting(f: FieldInfo, schema: z.ZodType): z.ZodType {
  if (f.kind !== 'boolean') return writableField(f, schema);
  return z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? (BOOLEAN_INPUTS[String(v)] ?? v) : v),
    schema,
  );
}

/** Null clears a nullable column (not a secret: a blank secret keeps the stored one). */
function clearable(f: FieldInfo, schema: z.ZodType): z.ZodType {
  if (!f.isNullable || !f.isColumn || f.meta.writeOnly || schema.safeParse(null).success) return schema;
  return schema.nullable();
}

function withoutDefault(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  return def.type === 'default' || def.type === 'prefault' ? def.innerType! : schema;
}
