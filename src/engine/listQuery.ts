import type { Condition, Resource } from '../../resources/define.ts';
import { searchableFields } from '../../resources/fields.ts';
import { defaultSortOf, sortableFields } from './registry.ts';

export type ListQuery = Record<string, string | number | undefined>;

export interface ListParams {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
}

/**
 * Turns react-admin list params into the contract's list query: filters become `search`/`searchFields`
 * (each field with its declared default condition), the sort becomes `orderBy`/`sortedBy`, pagination
 * becomes `page`/`size`. Empty filter values are dropped (spec 5).
 *
 * @example
 * listQuery(staff, { pagination: { page: 2, perPage: 20 }, filter: { name: 'li' } })
 * // { page: 2, size: 20, search: 'name:li', searchFields: 'name:like' }
 */
export function listQuery(resource: Resource, params: ListParams): ListQuery {
  const query: ListQuery = {};
  if (params.pagination) {
    query.page = params.pagination.page;
    query.size = params.pagination.perPage;
  }
  Object.assign(query, searchQuery(resource, params.filter ?? {}));
  Object.assign(query, sortQuery(resource, params.sort));
  return query;
}

/** `search`/`searchFields` for a filter object; unknown filter keys are searched with `=`. */
export function searchQuery(resource: Resource, filter: Record<string, unknown>): ListQuery {
  const search: string[] = [];
  const conditions: string[] = [];
  for (const [key, raw] of Object.entries(filter)) {
    const [name = key, explicit] = key.split('@') as [string, Condition | undefined];
    const condition = explicit ?? defaultCondition(resource, name);
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
  return search.length ? { search: search.join(';'), searchFields: conditions.join(';') } : {};
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
  const declared = searchableFields(resource).get(name)?.conditions ?? [];
  if (low !== null && declared.includes('>=')) return { value: low, condition: '>=' };
  if (high !== null && declared.includes('<=')) return { value: high, condition: '<=' };
  return null;
}

function defaultCondition(resource: Resource, name: string): Condition {
  return searchableFields(resource).get(name)?.conditions[0] ?? '=';
}

/** A filter value as the query carries it; null when it should be dropped. */
function encodeValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) {
    const items = value.map(encodeValue).filter((v): v is string => v !== null);
    return items.length ? items.join(',') : null;
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** The export query of a list: its current filters and sort, without paging (the export has no row cap). */
export function exportQuery(resource: Resource, params: Omit<ListParams, 'pagination'>): ListQuery {
  return listQuery(resource, { filter: params.filter, sort: params.sort });
}
