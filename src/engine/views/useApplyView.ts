import { useListContext, useStore } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { listFields } from '../data/registry.ts';
import { useDensity } from '../list/listLayout.tsx';
import type { SavedView } from './savedViews.ts';
import { listStateOf, viewQueryOf } from './viewQuery.ts';

/**
 * Reads the open list's state as a saved view keeps it, and applies a saved view to it: its filters and sort
 * (react-admin's list params), its columns (`preferences.<key>.columns`: indexes into the list's columns,
 * kept here as field names so a view outlives a change of the column order) and its density.
 *
 * @example
 * const { current, apply } = useApplyView(resource, 'staff.datagrid');
 */
export function useApplyView(resource: Resource, preferenceKey: string) {
  const { filterValues, sort, setFilters, setSort } = useListContext();
  const [chosen, setChosen] = useStore<string[] | undefined>(`preferences.${preferenceKey}.columns`);
  const [density, setDensity] = useDensity(preferenceKey);
  const names = listFields(resource).map((f) => f.name);
  const current = () => ({
    query: viewQueryOf(resource, {
      filter: (filterValues ?? {}) as Record<string, unknown>,
      sort: { field: sort.field, order: sort.order === 'DESC' ? 'DESC' : 'ASC' },
    }),
    columns: chosen ? chosen.flatMap((index) => names[Number(index)] ?? []) : [],
    density,
  });
  const apply = (view: Pick<SavedView, 'query' | 'columns' | 'density'>) => {
    const state = listStateOf(resource, view.query);
    setSort(state.sort);
    setFilters(state.filter, Object.fromEntries(Object.keys(state.filter).map((key) => [key, true])));
    if (view.columns.length) {
      const indexes = view.columns.map((name) => names.indexOf(name)).filter((i) => i >= 0);
      // The row actions (the column after the fields) stay shown.
      setChosen([...indexes, names.length].map(String));
    } else setChosen(undefined);
    setDensity(view.density);
  };
  return { current, apply };
}
