import type * as z from 'zod';
import type { Resource } from '../../../resources/define.ts';
import { maxPageSizeOf } from '../../../resources/fields.ts';
import { resources as registered } from '../../../resources/index.ts';
import { describeResource, type EngineField } from '../data/descriptor.ts';
import { writableFields } from '../data/registry.ts';

/**
 * The form side of the engine: what validates or builds a request body reads the zod declarations of
 * resources/ (lists, menus and titles read descriptors, registry.ts). Only the lazy form, show and import
 * chunks import this module, so opening a list loads no zod.
 */

/** A field of a declared resource: its description plus its zod schema. */
export interface SchemaField extends EngineField {
  schema: z.ZodType;
}

/** Every field of a declared resource, described (descriptor.ts) and with its schema. */
export function schemaFields(resource: Resource): SchemaField[] {
  const described = describeResource(resource).fields;
  return resource.fields.map(({ schema }, index) => ({ ...described[index]!, schema }));
}

/**
 * An inline has-many list (`hasMany: { parts: { ..., inline: true } }`): children edited in the parent's form
 * and written with it (resources/inline-lists.ts).
 */
export interface InlineCollection {
  /** Key in the parent's record and body (`parts`); its label is `resources.<parent>.fields.<key>`. */
  key: string;
  foreignKey: string;
  child: Resource;
  /** The most rows the server takes in one list. */
  maxItems: number;
}

/** The inline has-many lists of a resource whose child is in `list` (the registry by default). */
export function inlineCollections(
  resource: Resource,
  list: readonly Resource[] = registered,
): InlineCollection[] {
  return Object.entries(resource.options.hasMany ?? {}).flatMap(([key, spec]) => {
    const child = spec.inline ? findResource(spec.resource, list) : undefined;
    if (!child) return [];
    // The server's cap, from the shared model: the child's maxPageSize, at most 1000.
    const maxItems = maxPageSizeOf(child);
    return [{ key, foreignKey: spec.foreignKey, child, maxItems }];
  });
}

/** The inputs of one child row: the child's writable fields except the key pointing at the parent. */
export function inlineRowFields(collection: InlineCollection): EngineField[] {
  return writableFields(describeResource(collection.child)).filter((f) => f.name !== collection.foreignKey);
}

/** Looks a declared resource up by its name in the given list (the registry by default). */
export function findResource(name: string, list: readonly Resource[] = registered): Resource | undefined {
  return list.find((resource) => resource.name === name);
}
