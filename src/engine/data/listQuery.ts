import type { Condition } from '../../../resources/meta.ts';
import type { ResourceDescriptor as Resource } from './descriptor.ts';
import { escapeSearchValue } from '../../lib/query.ts';
import { defaultSortOf, relatedListFields, sortableFields } from './registry.ts';

export type ListQuery = Record<string, string | number | undefined>;

export interface ListParams {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
}

/** The filter key of react-admin's "search everything" box; sent as the contract's `q` parameter. */
export const Q_FILTER = 'q';

/**
 * Turns react-admin list params into the contract's list query: filters become `search`/`searchFields`
 * (each field with its declared default condition, every value escaped), the `q` filter becomes `q`, the
 * sort becomes `orderBy`/`sortedBy`, pagination becomes `page`/`size`. Empty filter values are dropped
 * (spec 5).
 *
 * @example
 * listQuery(staff, { pagination: { page: 2, perPage: 20 }, filter: { name: 'li' } })
 * // { page: 2, size: 20, search: 'name:li', searchFields: 'name:like' }
 */
export function listQuery(
  resource: Resource,
  params: ListParams,
  fixed: Parameters<typeof searchQuery>[2] = [],
): ListQuery {
  const query: ListQuery = {};
  if (params.pagination) {
    query.page = params.pagination.page;
    query.size = params.pagination.perPage;
  }
  Object.assign(query, searchQuery(resource, params.filter ?? {}, fixed));
  Object.assign(query, sortQuery(resource, params.sort));
  return query;
}

/**
 * `search`/`searchFields` (and `q`) for a filter object; unknown filter keys are searched with `=`. A key may
 * name its condition (`name@=`); `fixed` pairs (getManyReference's target) are added with their condition.
 */
export function searchQuery(
  resource: Resource,
  filter: Record<string, unknown>,
  fixed: { name: string; condition: Condition; value: unknown }[] = [],
): ListQuery {
  const search: string[] = [];
  const conditions: string[] = [];
  const query: ListQuery = {};
  const fixedNames = new Set(fixed.map((f) => f.name));
  for (const [key, raw] of flatRelated(resource, filter)) {
    if (key === Q_FILTER) {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text) query.q = text;
      continue;
    }
    if (fixedNames.has(key.split('@')[0]!)) continue;
    const [name = key, explicit] = key.split('@') as [string, Condition | undefined];
    const condition = explicit ?? (Array.isArray(raw) ? arrayCondition(resource, name) : defaultCondition(resource, name));
    if (condition === 'between' && Array.isArray(raw)) {
      const range = rangeSearch(resource, name, raw);
      if (range) {
        search.push(`${name}:${range.value}`);
        conditions.push(`${name}:${range.condition}`);
      }
      continue;
    }
    const value = encodeValue(raw);
    if (value === null) continue;
    search.push(`${name}:${value}`);
    conditions.push(`${name}:${condition}`);
  }
  for (const { name, condition, value } of fixed) {
    const encoded = encodeValue(value);
    if (encoded === null) continue;
    search.push(`${name}:${encoded}`);
    conditions.push(`${name}:${condition}`);
  }
  if (search.length) Object.assign(query, { search: search.join(';'), searchFields: conditions.join(';') });
  return query;
}

/**
 * The filter's entries, a related field's value (`department.name`) taken out of the object react-admin's
 * filter form nests it in (`{ department: { name: 'x' } }`).
 */
function flatRelated(resource: Resource, filter: Record<string, unknown>): [string, unknown][] {
  const related = new Set(relatedListFields(resource).map((f) => f.path));
  return Object.entries(filter).flatMap(([key, raw]): [string, unknown][] => {
    const isNested = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !(raw instanceof Date);
    if (!isNested) return [[key, raw]];
    return Object.entries(raw as Record<string, unknown>)
      .map(([sub, value]): [string, unknown] => [`${key}.${sub}`, value])
      .filter(([path]) => related.has(path));
  });
}

function sortQuery(resource: Resource, sort: ListParams['sort']): ListQuery {
  if (!sort?.field || !sortableFields(resource).has(sort.field)) return {};
  const fallback = defaultSortOf(resource);
  const isServerDefault =
    !resource.options.defaultSort && sort.field === fallback.field && sort.order === fallback.order;
  if (isServerDefault) return {};
  return { orderBy: sort.field, sortedBy: sort.order.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

/**
 * A `[from, to]` range filter: `between` with both ends; with one end, `>=`/`<=` when the field declares it
 * (else nothing, since `between` needs both).
 */
function rangeSearch(
  resource: Resource,
  name: string,
  [from, to]: unknown[],
): { value: string; condition: Condition } | null {
  const low = encodeValue(from);
  const high = encodeValue(to);
  if (low !== null && high !== null) return { value: `${low},${high}`, condition: 'between' };
  const declared = conditionsOf(resource, name) ?? [];
  if (low !== null && declared.includes('>=')) return { value: low, condition: '>=' };
  if (high !== null && declared.includes('<=')) return { value: high, condition: '<=' };
  return null;
}

/** The conditions the server accepts on a field (none when it is not searchable). */
function conditionsOf(resource: Resource, name: string): readonly Condition[] | undefined {
  const related = relatedListFields(resource).find((f) => f.path === name && f.conditions.length);
  return related ? related.conditions : resource.searchable.find((f) => f.name === name)?.conditions;
}

/**
 * What an array filter means, from the field model: a range `[from, to]` (`between`, or `>=`/`<=` with one
 * end) for a field searched by range (its default condition is `between`, or it declares a range but no
 * `in`), else any of the values (`in`). A field that declares no `in` gets `in` all the same: the server's
 * 422 names the field, where `=` with the values joined would silently match nothing.
 */
function arrayCondition(resource: Resource, name: string): Condition {
  const declared = conditionsOf(resource, name) ?? [];
  const isRange =
    declared[0] === 'between' ||
    (!declared.includes('in') && ['between', '>=', '<='].some((c) => declared.includes(c as Condition)));
  return isRange ? 'between' : 'in';
}

function defaultCondition(resource: Resource, name: string): Condition {
  return conditionsOf(resource, name)?.[0] ?? '=';
}

/**
 * The condition that matches a reference's target exactly: `=` (for one value) or `in` (for a list), whatever
 * the field's default condition is; `in` for one value when the field declares only that.
 */
export function equalityCondition(resource: Resource, name: string, value: unknown): Condition {
  if (Array.isArray(value)) return 'in';
  const declared = conditionsOf(resource, name) ?? [];
  return declared.length && !declared.includes('=') && declared.includes('in') ? 'in' : '=';
}

/** A filter value as the query carries it (escaped; list items joined by `,`); null when it is dropped. */
function encodeValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) {
    const items = value.map(encodeValue).filter((v): v is string => v !== null);
    return items.length ? items.join(',') : null;
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return escapeSearchValue(value.toISOString());
  return escapeSearchValue(String(value));
}

/** The export query of a list: its current filters and sort, without paging (the export has no row cap). */
export function exportQuery(resource: Resource, params: Omit<ListParams, 'pagination'>): ListQuery {
  return listQuery(resource, { filter: params.filter, sort: params.sort });
}
