import * as z from 'zod';
import type { Resource } from './define.ts';
import { issueKey } from '../schemas/messages.ts';
import { fieldByName, maxPageSizeOf } from './fields.ts';
import { withRules, writeSchemas } from './write.ts';

/**
 * Inline has-many lists (`hasMany: { parts: { resource, foreignKey, inline: true } }`): children written with
 * their parent. This file knows their declarations and their body schemas; operations.ts writes them.
 */
export interface InlineList {
  /** The key in the parent's body and records (`parts`). */
  key: string;
  foreignKey: string;
  child: Resource;
  /** The most items one body may carry: the child's `limits.maxPageSize`, at most 1000. */
  maxItems: number;
}

/** One validated item: the child's fields (foreign key excluded), plus `id` when it updates a child. */
export type InlineItem = Record<string, unknown> & { id?: string };

/** The inline lists of a resource. Throws (at route registration) when a declaration does not fit. */
export function inlineLists(resource: Resource, registry: readonly Resource[]): InlineList[] {
  return Object.entries(resource.options.hasMany ?? {})
    .filter(([, spec]) => spec.inline)
    .map(([key, spec]) => {
      const where = `hasMany ${resource.name}.${key}`;
      const child = registry.find((r) => r.name === spec.resource);
      if (!child) throw new Error(`${where}: resource ${spec.resource} is not registered`);
      if (!fieldByName(child, spec.foreignKey))
        throw new Error(`${where}: ${spec.resource} has no field ${spec.foreignKey}`);
      if (fieldByName(resource, key))
        throw new Error(`${where}: the key is also a field of ${resource.name}`);
      const maxItems = maxPageSizeOf(child);
      return { key, foreignKey: spec.foreignKey, child, maxItems };
    });
}

/**
 * The create/update body schemas of a resource: its write schemas (schemas.ts) plus one optional array per
 * inline list. An item with an `id` is checked with the child's partial update schema, one without with its
 * create schema; both strict, without the foreign key. `created_at`/`updated_at` echoed back are dropped.
 * Issues keep their path, so a bad item field is `parts.2.name` in the 422.
 */
export function bodySchemas(
  resource: Resource,
  registry: readonly Resource[],
): { create: z.ZodObject; update: z.ZodObject } {
  let cached = cache.get(resource);
  if (!cached) {
    const own = writeSchemas(resource);
    const lists = Object.fromEntries(
      inlineLists(resource, registry).map((list) => [list.key, itemList(list).optional()]),
    );
    cached = {
      create: withRules(resource, own.create.extend(lists)),
      update: withRules(resource, own.update.extend(lists)),
    };
    cache.set(resource, cached);
  }
  return cached;
}
const cache = new WeakMap<Resource, { create: z.ZodObject; update: z.ZodObject }>();

/** How the OpenAPI document shows one item (a plain JSON schema cannot pick create or update by `id`). */
export function itemDocSchema(list: InlineList): z.ZodObject {
  return itemSchemas(list).create.extend({
    id: ID.optional().describe(
      'an existing child: updates it (partial); left out: a new child. On update the list replaces the set.',
    ),
  });
}

const ID = z.union([z.string().regex(/^\d{1,19}$/), z.number().int().positive()]).transform(String);

function itemSchemas(list: InlineList): { create: z.ZodObject; update: z.ZodObject } {
  const { create, update } = writeSchemas(list.child);
  const withoutKey = { [list.foreignKey]: true } as Record<string, never>;
  return { create: create.omit(withoutKey), update: update.omit(withoutKey).extend({ id: ID }) };
}

function itemList(list: InlineList) {
  const schemas = itemSchemas(list);
  const item = z.unknown().transform((value, ctx): InlineItem => {
    const input = withoutEchoes(value);
    const isUpdate = typeof input === 'object' && input !== null && 'id' in input;
    const result = (isUpdate ? schemas.update : schemas.create).safeParse(input, {
      error: (iss) => issueKey(iss),
    });
    if (result.success) return result.data as InlineItem;
    // Issues already carry their message key; the array adds the index and the body the list's key.
    for (const issue of result.error.issues) ctx.issues.push(issue as unknown as z.core.$ZodRawIssue);
    return z.NEVER;
  });
  const tooMany = `engine.record.too_many_items|${JSON.stringify({ max: list.maxItems })}`;
  // The length is checked before any item is parsed.
  return z.array(z.unknown()).max(list.maxItems, { message: tooMany }).pipe(z.array(item));
}

/** Timestamps a client echoes back are dropped, and so is an empty `id` (a new row). */
function withoutEchoes(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  delete copy.created_at;
  delete copy.updated_at;
  if (copy.id === undefined || copy.id === null || copy.id === '') delete copy.id;
  return copy;
}
