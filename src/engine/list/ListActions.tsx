import { CreateButton, FilterButton, TopToolbar, useResourceDefinition } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { ADD_FILTER_CLASS, prefetchFilterInputs } from './filterInputs.tsx';
import { filterFields } from '../data/registry.ts';
import { ExportButton } from '../csv/ExportButton.tsx';
import { ImportButton } from '../csv/ImportButton.tsx';
import { ColumnsButton, DensityButton } from './listLayout.tsx';
import type { Ability } from '../data/useAbilities.ts';
import { TrashButton } from '../trash/TrashButton.tsx';
import { ViewsButton } from '../views/ViewsButton.tsx';

/**
 * The list's toolbar: add filter, the column chooser and the density toggle (for a table: `preferenceKey` is
 * its preferences' key; none for the phone's cards), create, export (current filters and sort), import, and the trash (for a caller who may delete).
 * `viewsKey` (the list's preferences key on a desk and a phone alike) adds the saved views menu (views/).
 */
export function ListActions({
  resource,
  hasFilters,
  can,
  preferenceKey,
  viewsKey,
}: {
  resource: Resource;
  hasFilters: boolean;
  can: Record<Ability, boolean>;
  preferenceKey?: string;
  viewsKey?: string;
}) {
  const { hasCreate } = useResourceDefinition({ resource: resource.name });
  const prefetch = () => prefetchFilterInputs(filterFields(resource));
  return (
    <TopToolbar>
      {hasFilters ? (
        // Pointing at "Add filter" (or tabbing to it) fetches the inputs of the filters it may add.
        <FilterButton className={ADD_FILTER_CLASS} onMouseEnter={prefetch} onFocus={prefetch} />
      ) : null}
      {viewsKey ? <ViewsButton resource={resource} preferenceKey={viewsKey} /> : null}
      {preferenceKey ? <ColumnsButton preferenceKey={preferenceKey} /> : null}
      {preferenceKey ? <DensityButton preferenceKey={preferenceKey} /> : null}
      {hasCreate && can.create ? <CreateButton /> : null}
      {can.export ? <ExportButton resource={resource} /> : null}
      {can.import ? <ImportButton resource={resource} /> : null}
      <TrashButton resource={resource} can={can} />
    </TopToolbar>
  );
}
