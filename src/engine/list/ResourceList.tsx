import {
  DatagridConfigurable,
  EditButton,
  List,
  Pagination,
  SearchInput,
  ShowButton,
  useListContext,
  useResourceDefinition,
  useTranslate,
} from 'react-admin';
import Box from '@mui/material/Box';
import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import type { EngineField, ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { useLiveList } from '../../events/useLiveList.ts';
import { renderField, useFieldKinds } from '../fields/fieldTable.tsx';
import { renderFilterInput } from './filterInputs.tsx';
import { Q_FILTER } from '../data/listQuery.ts';
import {
  bulkStateField,
  defaultSortOf,
  filterFields,
  hasQSearch,
  listFields,
  relatedListFields,
  relatedSortOf,
  representationField,
  sortableFields,
} from '../data/registry.ts';
import { DeleteRecordButton } from '../form/DeleteRecordButton.tsx';
import { RecordActionButtons, useHeldActions } from '../form/RecordActionButtons.tsx';
import { ListActions } from './ListActions.tsx';
import { ListEmpty } from './ListEmpty.tsx';
import {
  listPreferenceKey,
  stickyHeaderSx,
  tableSize,
  useChosenColumns,
  useDensity,
  useIsPhone,
} from './listLayout.tsx';
import { onRowKeys } from './rowKeys.ts';
import { ScrollKeeper } from './ScrollKeeper.tsx';
import { useAbilities } from '../data/useAbilities.ts';
import { useInlineColumns } from './inline/inlineColumn.tsx';
import { bulkEditableFields } from '../undo/bulkEditable.ts';

/** The phone's cards: loaded when the phone layout is chosen, so a desk never loads them. */
const RecordCards = lazy(() => import('./RecordCards.tsx').then((m) => ({ default: m.RecordCards })));

/**
 * The selected rows' buttons: react-admin renders the bulk toolbar's children even with nothing selected (the
 * toolbar is collapsed), so BulkActions renders them only once a row is selected, and they load then; pointing
 * at or tabbing to a row's checkbox fetches them ahead (prefetchBulkActions).
 */
const loadBulkActionButtons = () => import('./BulkActionButtons.tsx');
const BulkActionButtons = lazy(() => loadBulkActionButtons().then((m) => ({ default: m.BulkActionButtons })));
const prefetchBulkActions = () => void loadBulkActionButtons().catch(() => undefined);

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
 * The table is react-admin's configurable datagrid: the toolbar's column chooser and density toggle are
 * remembered per list (`preferences.<name>.datagrid.*`, kept in localStorage by preferenceStore), and its
 * headers stick under the top bar. On phones the same columns show as cards (RecordCards).
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
  const translate = useTranslate();
  useLiveList(resource.name);
  const fields = listFields(resource);
  // The renderers of the column kinds not loaded with every list (money, files...) load before it paints; the
  // route starts them ahead (EngineResource).
  useFieldKinds(fields, { isListCell: true });
  const { hasEdit, hasShow } = useResourceDefinition({ resource: resource.name });
  const sortable = sortableFields(resource);
  const filters = [
    ...(hasQSearch(resource)
      ? [
          // react-admin's search box has a placeholder and no label; the label names it for screen readers.
          <SearchInput
            key={Q_FILTER}
            source={Q_FILTER}
            alwaysOn
            slotProps={{ htmlInput: { 'aria-label': translate('ra.action.search') } }}
          />,
        ]
      : []),
    ...filterFields(resource).map(
      (field, index) =>
        filterInputs[field.name] ??
        renderFilterInput(field, { resource: resource.name, alwaysOn: index < ALWAYS_ON_FILTERS }),
    ),
    ...relatedFilterFields(resource, translate).map((field) =>
      renderFilterInput(field, { resource: resource.name, alwaysOn: false }),
    ),
  ];
  const preferenceKey = listPreferenceKey(resource.name);
  const [density] = useDensity(preferenceKey);
  const isPhone = useIsPhone();
  // The record's page (`:id`) is the show view for a caller who may not update (EngineResource), so a
  // resource without a show route of its own still opens read-only.
  const rowLink = hasEdit && (can.update || !hasShow) ? 'edit' : hasShow ? 'show' : false;
  // The row and bulk actions the caller holds (`<permission>.<key>`) keep the actions cell and the bulk bar.
  const heldActions = useHeldActions(resource);
  const heldBulk = heldActions.some(([, action]) => action.bulk);
  const bulkActionButtons =
    can.delete || can.update || heldBulk ? <BulkActions resource={resource} can={can} /> : false;
  const hasRowActions = (hasEdit && can.update) || hasShow || can.delete || heldActions.length > 0;
  // On a desk every cell takes the keyboard and editable ones edit in place; phones' cards open the record.
  const toCell = useInlineColumns(resource.name, can.update);
  const columns = [
    ...fields.map((field) => {
      const column = renderField(field, {
        resource: resource.name,
        sortable: sortable.has(field.name) || Boolean(relatedSortOf(resource, field.name)),
        sortBy: relatedSortOf(resource, field.name),
        isListCell: true,
      });
      return isPhone ? column : toCell(field, column);
    }),
    hasRowActions ? (
      <RowActions
        key="row-actions"
        label="engine.table.actions"
        resource={resource}
        canEdit={Boolean(hasEdit && can.update)}
        canShow={Boolean(hasShow)}
        canDelete={can.delete}
      />
    ) : null,
  ];
  return (
    <List
      resource={resource.name}
      sort={defaultSortOf(resource)}
      perPage={PER_PAGE}
      filters={filters.length ? filters : undefined}
      actions={
        <ListActions
          resource={resource}
          hasFilters={filters.length > 0}
          can={can}
          preferenceKey={isPhone ? undefined : preferenceKey}
          viewsKey={preferenceKey}
        />
      }
      pagination={<EnginePagination />}
      empty={<ListEmpty resource={resource} can={can} />}
    >
      <ScrollKeeper storeKey={`engine.${resource.name}.list.scroll`} />
      {/* A box that lays nothing out: it hears the pointer and focus reaching a selection checkbox. */}
      <Box
        sx={{ display: 'contents' }}
        onMouseOver={bulkActionButtons ? prefetchOnCheckbox : undefined}
        onFocus={bulkActionButtons ? prefetchOnCheckbox : undefined}
        onKeyDown={onRowKeys}
      >
        {isPhone ? (
          <PhoneCards
            resource={resource}
            preferenceKey={preferenceKey}
            columns={columns}
            rowLink={rowLink}
            bulkActionButtons={bulkActionButtons}
          />
        ) : (
          <DatagridConfigurable
            preferenceKey={preferenceKey}
            size={tableSize(density)}
            sx={[stickyHeaderSx, focusedRowSx]}
            rowClick={rowLink}
            bulkActionButtons={bulkActionButtons}
          >
            {columns}
          </DatagridConfigurable>
        )}
      </Box>
    </List>
  );
}

/**
 * The filters of a reference's related fields (`department.name`, its `searchBy`): the target's field under
 * the related path, labelled "Department (Name)".
 */
function relatedFilterFields(resource: Resource, translate: ReturnType<typeof useTranslate>): EngineField[] {
  return relatedListFields(resource)
    .filter((f) => f.conditions.length)
    .map(({ path, reference, target, field, conditions }) => ({
      ...field,
      name: path,
      meta: { ...field.meta, search: [...conditions] },
      label: translate('engine.related.field', {
        relation: translate(reference.label ?? `resources.${resource.name}.fields.${reference.name}`),
        field: translate(field.label ?? `resources.${target.name}.fields.${field.name}`),
      }),
    }));
}

/** A row the arrow keys moved to shows the focus ring (onRowKeys). */
const focusedRowSx = {
  '& tbody tr:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
};

/** The cards of a phone, showing the columns chosen for the table. */
function PhoneCards({
  resource,
  preferenceKey,
  columns,
  ...rest
}: {
  resource: Resource;
  preferenceKey: string;
  columns: ReactNode[];
  rowLink: 'edit' | 'show' | false;
  bulkActionButtons: ReactNode | false;
}) {
  const chosen = useChosenColumns(preferenceKey, columns);
  return (
    // While the cards load, the space of the cards' own loading state (three 96 px cards).
    <Suspense fallback={<Box sx={{ p: 1, minHeight: 3 * 104 + 16 }} aria-busy="true" />}>
      <RecordCards
        resource={resource.name}
        titleSource={representationField(resource)}
        columns={chosen}
        {...rest}
      />
    </Suspense>
  );
}

/**
 * One cell for the row's buttons (edit, show, delete, then the row actions the caller holds: RecordActionButtons),
 * named "Actions" in the header and the column chooser; a phone's card shows them at its foot.
 */
function RowActions({
  resource,
  canEdit,
  canShow,
  canDelete,
}: {
  label: string;
  resource: Resource;
  canEdit: boolean;
  canShow: boolean;
  canDelete: boolean;
}) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'nowrap', gap: 0.5 }}>
      {canEdit ? <EditButton /> : null}
      {canShow ? <ShowButton /> : null}
      {canDelete ? <DeleteRecordButton resource={resource} /> : null}
      <RecordActionButtons resource={resource} />
    </Box>
  );
}

/**
 * The actions on the selected rows the caller may take: enable/disable (a `state` field), delete, the
 * resource's `bulk: true` actions. Nothing
 * until a row is selected; while the buttons load, the toolbar (a fixed height) shows the selection's count.
 */
function BulkActions({ resource, can }: { resource: Resource; can: ReturnType<typeof useAbilities> }) {
  const { selectedIds } = useListContext();
  if (!selectedIds?.length) return null;
  const state = can.update ? bulkStateField(resource) : undefined;
  return (
    <Suspense fallback={<Box component="span" aria-busy="true" />}>
      <BulkActionButtons
        state={state?.name}
        canDelete={can.delete}
        edit={can.update && bulkEditableFields(resource).length ? resource : undefined}
        actions={resource}
      />
    </Suspense>
  );
}

/** Fetches the bulk buttons when a row's (or the header's) selection checkbox is pointed at or focused. */
function prefetchOnCheckbox(event: { target: EventTarget }) {
  const target = event.target as Element | null;
  if (target instanceof Element && target.closest('input[type="checkbox"], .MuiCheckbox-root')) {
    prefetchBulkActions();
  }
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
