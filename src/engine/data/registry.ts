import { descriptors } from 'virtual:resource-descriptors';
import type { Condition } from '../../../resources/meta.ts';
import type { EngineField, ResourceDescriptor } from './descriptor.ts';

export type { EngineField, ResourceDescriptor } from './descriptor.ts';

/**
 * The registry's resources (resources/index.ts) as the screens see them: plain descriptors computed at build
 * time (scripts/lib/resourceDescriptors.ts), so lists, menus and titles load no zod. Forms read the zod
 * declarations themselves (schemaFields.ts), in their own lazy chunks.
 */
export const registeredDescriptors: readonly ResourceDescriptor[] = descriptors;

/** How many readable fields become columns when no field says `list: true`. */
const DEFAULT_COLUMNS = 5;

/** Looks a resource up by its name in the given list (the registry by default). */
export function findDescriptor(
  name: string,
  list: readonly ResourceDescriptor[] = registeredDescriptors,
): ResourceDescriptor | undefined {
  return list.find((resource) => resource.name === name);
}

export function engineFields(resource: ResourceDescriptor): EngineField[] {
  return resource.fields;
}

/** Fields a response carries (write-only ones never come back). */
export function readableFields(resource: ResourceDescriptor): EngineField[] {
  return resource.fields.filter((f) => !f.meta.writeOnly);
}

/** Fields a form edits (read-only ones are server-computed). */
export function writableFields(resource: ResourceDescriptor): EngineField[] {
  return resource.fields.filter((f) => !f.meta.readOnly);
}

/** List columns: fields marked `list: true`, else the first few readable fields. */
export function listFields(resource: ResourceDescriptor): EngineField[] {
  const readable = readableFields(resource);
  const marked = readable.filter((f) => f.meta.list === true);
  if (marked.length) return marked;
  return readable.filter((f) => f.meta.list !== false && f.kind !== 'json').slice(0, DEFAULT_COLUMNS);
}

/** List filters: the fields the shared model makes searchable (what the server accepts), unless `filter: false`. */
export function filterFields(resource: ResourceDescriptor): EngineField[] {
  const searchable = new Set(resource.searchable.map((f) => f.name));
  return resource.fields.filter((f) => searchable.has(f.name) && f.meta.filter !== false);
}

/** Whether the list's `q` box can search anything: some field the server searches takes `like`. */
export function hasQSearch(resource: ResourceDescriptor): boolean {
  return resource.searchable.some((f) => f.conditions.includes('like'));
}

/** The writable boolean `state` field bulk "enable/disable" sets; undefined when the resource has none. */
export function bulkStateField(resource: ResourceDescriptor): EngineField | undefined {
  return writableFields(resource).find((f) => f.name === 'state' && f.kind === 'boolean');
}

/** Field names allowed in `orderBy`: the shared model's and its references' related sorts (`department.name`). */
export function sortableFields(resource: ResourceDescriptor): Set<string> {
  const related = relatedListFields(resource).filter((f) => f.isSortable);
  return new Set([...resource.sortable, ...related.map((f) => f.path)]);
}

/** The list's initial sort in react-admin's shape (the shared model's default sort). */
export function defaultSortOf(resource: ResourceDescriptor): { field: string; order: 'ASC' | 'DESC' } {
  const sort = resource.defaultSort;
  return { field: sort.field, order: sort.order === 'asc' ? 'ASC' : 'DESC' };
}

/** The field that names a record (delete confirmation, reference options); the first string field else. */
export function representationField(resource: ResourceDescriptor): string {
  const declared = resource.options.recordRepresentation;
  if (declared) return declared;
  return readableFields(resource).find((f) => f.kind === 'string')?.name ?? 'id';
}

/**
 * A reference's related fields (docs/api.md "Related fields and text order"): the fields of its target it
 * declares in `sortBy`/`searchBy`, as the list language names them (`department.name`). The server applies
 * the target's permission, field access and scope; a field the caller may not use is a 422 there.
 */
export interface RelatedListField {
  /** `department.name`. */
  path: string;
  /** The reference field (`department_id`). */
  reference: EngineField;
  /** The target resource and its field. */
  target: ResourceDescriptor;
  field: EngineField;
  isSortable: boolean;
  /** The target field's search conditions when the reference declares it in `searchBy` (else none). */
  conditions: readonly Condition[];
}

export function relatedListFields(
  resource: ResourceDescriptor,
  list: readonly ResourceDescriptor[] = registeredDescriptors,
): RelatedListField[] {
  const out: RelatedListField[] = [];
  for (const reference of resource.fields) {
    const { sortBy = [], searchBy = [], relation } = reference.meta;
    if (reference.kind !== 'belongsTo' || !relation) continue;
    const target = findDescriptor(relation.resource, list);
    if (!target) continue;
    for (const name of new Set([...sortBy, ...searchBy])) {
      const field = target.fields.find((f) => f.name === name);
      if (!field) continue;
      const searchable = target.searchable.find((f) => f.name === name);
      out.push({
        path: `${reference.name.replace(/_id$/, '')}.${name}`,
        reference,
        target,
        field,
        isSortable: sortBy.includes(name) && target.sortable.includes(name),
        conditions: searchBy.includes(name) ? (searchable?.conditions ?? []) : [],
      });
    }
  }
  return out;
}

/** The related field a reference's column sorts by: its first sortable `sortBy` field. */
export function relatedSortOf(resource: ResourceDescriptor, reference: string): string | undefined {
  return relatedListFields(resource).find((f) => f.reference.name === reference && f.isSortable)?.path;
}

/**
 * The field that makes a resource a tree (`parent_id`: departments), or undefined. A reference to such a
 * resource is picked from a tree (fields/tree/TreePickerInput.tsx).
 */
export function treeParentField(resource: ResourceDescriptor): string | undefined {
  return resource.fields.find((f) => f.name === 'parent_id' && f.kind !== 'manyToMany')?.name;
}

/** What a tree picker needs of a tree resource (EngineResource registers it as the resource's `options.tree`). */
export interface TreeOptions {
  parentField: string;
  labelField: string;
  sort: { field: string; order: 'ASC' | 'DESC' };
  perPage: number;
}

/** A tree resource's picker options, or undefined when it is not a tree. */
export function treeOptionsOf(resource: ResourceDescriptor): TreeOptions | undefined {
  const parentField = treeParentField(resource);
  if (!parentField) return undefined;
  return {
    parentField,
    labelField: representationField(resource),
    sort: defaultSortOf(resource),
    perPage: resource.maxPageSize,
  };
}
