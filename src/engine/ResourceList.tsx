import {
  BulkDeleteButton,
  BulkUpdateButton,
  Datagrid,
  EditButton,
  List,
  Pagination,
  SearchInput,
  ShowButton,
  useListContext,
  useResourceDefinition,
  useTranslate,
} from 'react-admin';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import type { ReactElement } from 'react';
import type { Resource } from '../../resources/define.ts';
import { useLiveList } from '../events/useLiveList.ts';
import { renderField } from './fieldTable.tsx';
import { renderInput } from './inputTable.tsx';
import { Q_FILTER } from './listQuery.ts';
import {
  bulkStateField,
  defaultSortOf,
  filterFields,
  hasQSearch,
  listFields,
  sortableFields,
} from './registry.ts';
import { DeleteRecordButton } from './DeleteRecordButton.tsx';
import { ListActions } from './ListActions.tsx';
import { ListEmpty } from './ListEmpty.tsx';
import { ScrollKeeper } from './ScrollKeeper.tsx';
import { useAbilities } from './useAbilities.ts';

/** How many filters are shown without opening the "Add filter" menu. */
const ALWAYS_ON_FILTERS = 2;
const PER_PAGE = 15;

/**
 * The generated list of a resource: columns from `list` metadata, a search box (`q`: every `like` field) and
 * filters from searchable fields, sorting on sortable columns, pagination, bulk delete and bulk enable/disable
 * (a boolean `state` field; both are the API's atomic bulk calls), export/import, and row edit/show/delete. Page, filters and sort
 * are kept in react-admin's store (`<name>.listParams`) and the scroll position by ScrollKeeper, so coming
 * back to the list finds it as it was left.
 *
 * `filterInputs` swaps the generated filter input of a field for another (e.g. a tree select), so a list
 * override never has to copy this component.
 *
 * @example
 * <Resource name="staff" list={<ResourceList resource={staff} />} />
 */
export function ResourceList({
  resource,
  filterInputs = {},
}: {
  resource: Resource;
  filterInputs?: Partial<Record<string, ReactElement>>;
}) {
  const can = useAbilities(resource);
  useLiveList(resource.name);
  const { hasEdit, hasShow } = useResourceDefinition({ resource: resource.name });
  const sortable = sortableFields(resource);
  const filters = [
    ...(hasQSearch(resource) ? [<SearchInput key={Q_FILTER} source={Q_FILTER} alwaysOn />] : []),
    ...filterFields(resource).map(
      (field, index) =>
        filterInputs[field.name] ??
        renderInput(field, { resource: resource.name, isFilter: true, alwaysOn: index < ALWAYS_ON_FILTERS }),
    ),
  ];
  return (
    <List
      resource={resource.name}
      sort={defaultSortOf(resource)}
      perPage={PER_PAGE}
      filters={filters.length ? filters : undefined}
      actions={<ListActions resource={resource} hasFilters={filters.length > 0} can={can} />}
      pagination={<EnginePagination />}
      empty={<ListEmpty resource={resource} can={can} />}
    >
      <ScrollKeeper storeKey={`engine.${resource.name}.list.scroll`} />
      <Datagrid
        rowClick={hasEdit && can.update ? 'edit' : hasShow ? 'show' : false}
        bulkActionButtons={
          can.delete || (can.update && bulkStateField(resource)) ? (
            <BulkActions resource={resource} can={can} />
          ) : (
            false
          )
        }
      >
        {listFields(resource).map((field) =>
          renderField(field, {
            resource: resource.name,
            sortable: sortable.has(field.name),
            isListCell: true,
          }),
        )}
        {hasEdit && can.update ? <EditButton /> : null}
        {hasShow ? <ShowButton /> : null}
        {can.delete ? <DeleteRecordButton resource={resource} /> : null}
      </Datagrid>
    </List>
  );
}

/** The actions on the selected rows the caller may take: enable/disable (a `state` field), delete. */
function BulkActions({ resource, can }: { resource: Resource; can: ReturnType<typeof useAbilities> }) {
  const state = can.update ? bulkStateField(resource) : undefined;
  return (
    <>
      {state ? (
        <>
          <BulkUpdateButton
            label="engine.bulk.enable"
            data={{ [state.name]: true }}
            mutationMode="pessimistic"
            icon={<CheckCircleOutlineIcon />}
          />
          <BulkUpdateButton
            label="engine.bulk.disable"
            data={{ [state.name]: false }}
            mutationMode="pessimistic"
            icon={<HighlightOffIcon />}
          />
        </>
      ) : null}
      {can.delete ? <BulkDeleteButton mutationMode="pessimistic" /> : null}
    </>
  );
}

/**
 * Pagination that says "about N" when the server reports an estimated total (unfiltered lists of big tables)
 * and "N+" when its count stopped at the cap (filtered lists), so neither is shown as an exact count.
 */
function EnginePagination() {
  const { meta } = useListContext();
  const translate = useTranslate();
  const flags = meta as { totalIsEstimate?: boolean; totalIsCapped?: boolean } | undefined;
  const key = flags?.totalIsCapped
    ? 'engine.list.capped_range'
    : flags?.totalIsEstimate
      ? 'engine.list.estimated_range'
      : null;
  const label = ({ from, to, count }: { from: number; to: number; count: number }) =>
    translate(key!, { offsetBegin: from, offsetEnd: to, total: count.toLocaleString() });
  return (
    <Pagination rowsPerPageOptions={[15, 20, 50, 100]} {...(key ? { labelDisplayedRows: label } : {})} />
  );
}
