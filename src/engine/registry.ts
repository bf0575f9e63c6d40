import { resources as registered } from '../../resources/index.ts';
import type { FieldMeta, Resource } from '../../resources/define.ts';
import { searchConditions } from '../../resources/define.ts';
import type { z } from 'zod';
import { fieldKind, metaDeep } from './fieldKind.ts';
import type { FieldKind } from './fieldKind.ts';

/** One field of a resource as the screens see it. */
export interface EngineField {
  name: string;
  schema: z.ZodType;
  meta: FieldMeta;
  kind: FieldKind;
  /** Translation key of a declared label; unset means react-admin's `resources.<name>.fields.<field>`. */
  label?: string;
}

/** How many readable fields become columns when no field says `list: true`. */
const DEFAULT_COLUMNS = 5;

/**
 * An inline has-many list (`hasMany: { parts: { ..., inline: true } }`): children edited in the parent's form
 * and written with it (server/engine/has-many.ts).
 */
export interface InlineCollection {
  /** Key in the parent's record and body (`parts`); its label is `resources.<parent>.fields.<key>`. */
  key: string;
  foreignKey: string;
  child: Resource;
  /** The most rows the server takes in one list. */
  maxItems: number;
}

/** The most items of one inline list (the server's cap: the child's maxPageSize, at most 1000). */
const MAX_ITEMS = 1000;

/** The inline has-many lists of a resource whose child is in `list` (the registry by default). */
export function inlineCollections(
  resource: Resource,
  list: readonly Resource[] = registered,
): InlineCollection[] {
  return Object.entries(resource.options.hasMany ?? {}).flatMap(([key, spec]) => {
    const child = spec.inline ? findResource(spec.resource, list) : undefined;
    if (!child) return [];
    const maxItems = Math.min(child.options.limits?.maxPageSize ?? MAX_ITEMS, MAX_ITEMS);
    return [{ key, foreignKey: spec.foreignKey, child, maxItems }];
  });
}

/** The inputs of one child row: the child's writable fields except the key pointing at the parent. */
export function inlineRowFields(collection: InlineCollection): EngineField[] {
  return writableFields(collection.child).filter((f) => f.name !== collection.foreignKey);
}

/** Looks a resource up by its name in the given list (the registry by default). */
export function findResource(name: string, list: readonly Resource[] = registered): Resource | undefined {
  return list.find((resource) => resource.name === name);
}

export function engineFields(resource: Resource): EngineField[] {
  return resource.fields.map(({ name, schema, meta: declared }) => {
    const meta = Object.keys(declared).length ? declared : metaDeep(schema);
    return {
      name,
      schema,
      meta,
      kind: fieldKind(schema, meta),
      label: meta.label,
    };
  });
}

/** Fields a response carries (write-only ones never come back). */
export function readableFields(resource: Resource): EngineField[] {
  return engineFields(resource).filter((f) => !f.meta.writeOnly);
}

/** Fields a form edits (read-only ones are server-computed). */
export function writableFields(resource: Resource): EngineField[] {
  return engineFields(resource).filter((f) => !f.meta.readOnly);
}

/** List columns: fields marked `list: true`, else the first few readable fields. */
export function listFields(resource: Resource): EngineField[] {
  const readable = readableFields(resource);
  const marked = readable.filter((f) => f.meta.list === true);
  if (marked.length) return marked;
  return readable.filter((f) => f.meta.list !== false && f.kind !== 'json').slice(0, DEFAULT_COLUMNS);
}

/** List filters: searchable fields unless `filter: false`. */
export function filterFields(resource: Resource): EngineField[] {
  return engineFields(resource).filter((f) => searchConditions(f.meta).length > 0 && f.meta.filter !== false);
}

/** Whether the list's `q` box can search anything: some readable field declares the `like` condition. */
export function hasQSearch(resource: Resource): boolean {
  return readableFields(resource).some((f) => searchConditions(f.meta).includes('like'));
}

/** The writable boolean `state` field bulk "enable/disable" sets; undefined when the resource has none. */
export function bulkStateField(resource: Resource): EngineField | undefined {
  return writableFields(resource).find((f) => f.name === 'state' && f.kind === 'boolean');
}

/** Field names allowed in `orderBy`: declared sortable, plus `id` and the timestamps the engine adds. */
export function sortableFields(resource: Resource): Set<string> {
  const system = resource.timestamps ? ['id', 'created_at', 'updated_at'] : ['id'];
  return new Set([
    ...system,
    ...engineFields(resource)
      .filter((f) => f.meta.sort)
      .map((f) => f.name),
  ]);
}

/** The list's initial sort in react-admin's shape. */
export function defaultSortOf(resource: Resource): { field: string; order: 'ASC' | 'DESC' } {
  const sort = resource.options.defaultSort;
  return sort
    ? { field: sort.field, order: sort.order === 'asc' ? 'ASC' : 'DESC' }
    : { field: 'id', order: 'DESC' };
}

/** The field that names a record (delete confirmation, reference options); the first string field else. */
export function representationField(resource: Resource): string {
  const declared = resource.options.recordRepresentation;
  if (declared) return declared;
  return readableFields(resource).find((f) => f.kind === 'string')?.name ?? 'id';
}
