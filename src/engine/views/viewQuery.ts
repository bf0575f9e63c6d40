import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { listQuery, Q_FILTER } from '../data/listQuery.ts';
import { defaultSortOf } from '../data/registry.ts';
import type { ViewQuery } from './savedViews.ts';

/** What react-admin's list keeps: its filter values and its sort. */
export interface ListState {
  filter: Record<string, unknown>;
  sort: { field: string; order: 'ASC' | 'DESC' };
}

/**
 * A list's filters and sort as a saved view keeps them: the same query the list sends (listQuery), without
 * paging.
 *
 * @example
 * viewQueryOf(staff, { filter: { name: 'li' }, sort: { field: 'name', order: 'ASC' } })
 * // { search: 'name:li', searchFields: 'name:like', orderBy: 'name', sortedBy: 'asc' }
 */
export function viewQueryOf(resource: Resource, state: ListState): ViewQuery {
  const query = listQuery(resource, { filter: state.filter, sort: state.sort });
  const view: ViewQuery = {};
  if (typeof query.search === 'string') view.search = query.search;
  if (typeof query.searchFields === 'string') view.searchFields = query.searchFields;
  if (typeof query.q === 'string') view.q = query.q;
  if (typeof query.orderBy === 'string') view.orderBy = query.orderBy;
  if (query.sortedBy === 'asc' || query.sortedBy === 'desc') view.sortedBy = query.sortedBy;
  return view;
}

/**
 * The list state a saved view's query stands for (the reverse of viewQueryOf): each `field:value` pair
 * becomes the field's filter (`field@condition` when the condition is not the field's default; a list for
 * `in` and `between`), `q` the search box, `orderBy` the sort (the resource's default sort without one).
 */
export function listStateOf(resource: Resource, query: ViewQuery): ListState {
  const filter: Record<string, unknown> = {};
  const pairs = query.search ? splitEscaped(query.search, ';') : [];
  const conditions = new Map(
    (query.searchFields ? splitEscaped(query.searchFields, ';') : []).map((pair) => {
      const [name = '', condition = '='] = splitEscaped(pair, ':');
      return [unescape(name), unescape(condition)];
    }),
  );
  for (const pair of pairs) {
    const [rawName = '', ...rest] = splitEscaped(pair, ':');
    const name = unescape(rawName);
    const raw = rest.join(':');
    const condition = conditions.get(name) ?? '=';
    const declared = resource.searchable.find((f) => f.name === name)?.conditions ?? [];
    const isList = condition === 'in' || condition === 'between';
    const value = isList ? splitEscaped(raw, ',').map(unescape) : unescape(raw);
    const isDefault =
      condition === (declared[0] ?? '=') || (isList && (condition === 'in' || declared[0] === 'between'));
    filter[isDefault ? name : `${name}@${condition}`] = value;
  }
  if (query.q) filter[Q_FILTER] = query.q;
  const sort = query.orderBy
    ? { field: query.orderBy, order: query.sortedBy === 'desc' ? ('DESC' as const) : ('ASC' as const) }
    : defaultSortOf(resource);
  return { filter, sort };
}

/** Splits on `separator` where it is not escaped with a backslash; the parts keep their escapes. */
function splitEscaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += c + text[i + 1]!;
      i += 1;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function unescape(text: string): string {
  return text.replace(/\\([\\;:,])/g, '$1');
}
