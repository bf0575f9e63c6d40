import { CreateButton, FilterButton, TopToolbar, useResourceDefinition } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { ExportButton } from './ExportButton.tsx';
import { ImportButton } from './ImportButton.tsx';
import type { Ability } from './useAbilities.ts';

/** The list's toolbar: add filter, create, export (current filters and sort), import. */
export function ListActions({
  resource,
  hasFilters,
  can,
}: {
  resource: Resource;
  hasFilters: boolean;
  can: Record<Ability, boolean>;
}) {
  const { hasCreate } = useResourceDefinition({ resource: resource.name });
  return (
    <TopToolbar>
      {hasFilters ? <FilterButton /> : null}
      {hasCreate && can.create ? <CreateButton /> : null}
      {can.export ? <ExportButton resource={resource} /> : null}
      {can.import ? <ImportButton resource={resource} /> : null}
    </TopToolbar>
  );
}
