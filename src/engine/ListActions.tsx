import { CreateButton, FilterButton, TopToolbar } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { ExportButton } from './ExportButton.tsx';
import { ImportButton } from './ImportButton.tsx';

/** The list's toolbar: add filter, create, export (current filters and sort), import. */
export function ListActions({ resource, hasFilters }: { resource: Resource; hasFilters: boolean }) {
  return (
    <TopToolbar>
      {hasFilters ? <FilterButton /> : null}
      <CreateButton />
      <ExportButton resource={resource} />
      <ImportButton resource={resource} />
    </TopToolbar>
  );
}
