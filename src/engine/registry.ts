import { resources as registered } from '../../resources/index.ts';
import type { FieldMeta, Resource } from '../../resources/define.ts';
import {
  defaultSortOf as modelDefaultSort,
  fieldsOf,
  maxPageSizeOf,
  searchableFields,
  sortableFields as modelSortable,
} from '../../resources/fields.ts';
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

/** List filters: the fields the shared model makes searchable (what the server accepts), unless `filter: false`. */
export function filterFields(resource: Resource): EngineField[] {
  const searchable = new Set(fieldsOf(resource).flatMap((f) => (f.conditions.length ? [f.name] : [])));
  return engineFields(resource).filter((f) => searchable.has(f.name) && f.meta.filter !== false);
}

/** Whether the list's `q` box can search anything: some field the server searches takes `like`. */
export function hasQSearch(resource: Resource): boolean {
  return [...searchableFields(resource).values()].some((f) => f.conditions.includes('like'));
}

/** The writable boolean `state` field bulk "enable/disable" sets; undefined when the resource has none. */
export function bulkStateField(resource: Resource): EngineField | undefined {
  return writableFields(resource).find((f) => f.name === 'state' && f.kind === 'boolean');
}

/** Field names allowed in `orderBy`: the shared model's (the server accepts exactly these). */
export function sortableFields(resource: Resource): Set<string> {
  return modelSortable(resource);
}

/** The list's initial sort in react-admin's shape (the shared model's default sort). */
export function defaultSortOf(resource: Resource): { field: string; order: 'ASC' | 'DESC' } {
  const sort = modelDefaultSort(resource);
  return { field: sort.field, order: sort.order === 'asc' ? 'ASC' : 'DESC' };
}

/** The field that names a record (delete confirmation, reference options); the first string field else. */
export function representationField(resource: Resource): string {
  const declared = resource.options.recordRepresentation;
  if (declared) return declared;
  return readableFields(resource).find((f) => f.kind === 'string')?.name ?? 'id';
}
