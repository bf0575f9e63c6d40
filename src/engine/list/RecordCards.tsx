import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactElement, ReactNode } from 'react';
import {
  BulkActionsToolbar,
  FieldTitle,
  ListNoResults,
  RecordContextProvider,
  useCreatePath,
  useGetRecordRepresentation,
  useListContext,
  useTranslate,
} from 'react-admin';
import type { RaRecord } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

/**
 * The list as cards, for phones: one card per record, titled by its representation (a link to its edit or
 * show page, as a table row click would go), the chosen columns as label/value pairs (the same Field elements
 * as the table's cells), the row actions at the bottom, and a checkbox for the bulk actions, whose toolbar
 * shows above the cards once something is selected. The arrow keys move from card to card as through a
 * table's rows (rowKeys.ts: Up/Down, Home/End, Enter opens the title's link). Filters, pagination and the empty state stay the List's.
 *
 * @example
 * <List>{isPhone ? <RecordCards resource="staff" columns={cells} bulkActionButtons={<BulkActions />} /> : <Datagrid>...}</List>
 */
export function RecordCards({
  resource,
  columns,
  rowLink,
  bulkActionButtons,
  titleSource,
}: {
  resource: string;
  /** The field the title already shows (the record representation), left out of the pairs. */
  titleSource?: string;
  /** Field elements (source + label) and action cells, as given to the Datagrid. */
  columns: ReactElement[];
  /** Where the title links to: the edit or show page, or nowhere. */
  rowLink: 'edit' | 'show' | false;
  bulkActionButtons: ReactNode | false;
}) {
  const { data, isPending, selectedIds = [], onToggleItem, onSelect } = useListContext();
  const translate = useTranslate();
  const represent = useGetRecordRepresentation(resource);
  const createPath = useCreatePath();
  if (isPending) {
    return (
      <Box sx={{ p: 1 }} aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={96} sx={{ mb: 1 }} />
        ))}
      </Box>
    );
  }
  if (!data?.length) return <ListNoResults />;
  const hasBulk = bulkActionButtons !== false;
  const pageIds = data.map((record) => record.id);
  const allSelected = pageIds.every((id) => selectedIds.includes(id));
  return (
    <Box sx={{ p: 1 }}>
      {hasBulk ? (
        <>
          <BulkActionsToolbar>{bulkActionButtons}</BulkActionsToolbar>
          <FormControlLabel
            sx={{ ml: 0.5 }}
            label={translate('ra.action.select_all')}
            control={
              <Checkbox
                checked={allSelected}
                indeterminate={!allSelected && pageIds.some((id) => selectedIds.includes(id))}
                onChange={() =>
                  onSelect?.(
                    allSelected
                      ? selectedIds.filter((id) => !pageIds.includes(id))
                      : [...new Set([...selectedIds, ...pageIds])],
                  )
                }
              />
            }
          />
        </>
      ) : null}
      <Box
        component="ul"
        aria-label={translate(`resources.${resource}.name`, { smart_count: 2 })}
        sx={{ listStyle: 'none', m: 0, p: 0 }}
      >
        {data.map((record: RaRecord) => {
          const title = String(represent(record) ?? `#${record.id}`);
          const fields = columns.filter(
            (column) => isField(column) && (column.props as { source?: string }).source !== titleSource,
          );
          const actions = columns.filter((column) => !isField(column));
          return (
            <RecordContextProvider key={record.id} value={record}>
              <Card
                component="li"
                variant="outlined"
                sx={{
                  mb: 1,
                  p: 1.5,
                  '&:focus-visible': {
                    outline: '2px solid',
                    outlineColor: 'primary.main',
                    outlineOffset: -2,
                  },
                }}
                data-testid="record-card"
                // The arrow keys move from card to card and Enter opens its link (rowKeys.ts).
                data-key-row
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  {hasBulk ? (
                    <Checkbox
                      sx={{ ml: -1 }}
                      checked={selectedIds.includes(record.id)}
                      onChange={() => onToggleItem?.(record.id)}
                      slotProps={{
                        input: { 'aria-label': translate('engine.table.select_record', { name: title }) },
                      }}
                    />
                  ) : null}
                  <Typography
                    component="h2"
                    variant="subtitle1"
                    sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                  >
                    {rowLink ? (
                      <Link
                        component={RouterLink}
                        to={createPath({ resource, type: rowLink, id: record.id })}
                        underline="hover"
                        data-row-primary
                      >
                        {title}
                      </Link>
                    ) : (
                      title
                    )}
                  </Typography>
                </Box>
                <Box
                  component="dl"
                  sx={{
                    display: 'grid',
                    gridTemplateColumns: 'minmax(6em, auto) 1fr',
                    columnGap: 2,
                    rowGap: 0.5,
                    m: 0,
                    mt: 1,
                  }}
                >
                  {fields.map((field) => (
                    <Box key={String(field.key)} sx={{ display: 'contents' }}>
                      <Typography component="dt" variant="body2" color="text.secondary">
                        <FieldTitle
                          label={(field.props as { label?: string }).label}
                          source={(field.props as { source?: string }).source}
                          resource={resource}
                        />
                      </Typography>
                      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                        {field}
                      </Box>
                    </Box>
                  ))}
                </Box>
                {actions.length ? (
                  <Box sx={{ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', mt: 1 }}>
                    {actions}
                  </Box>
                ) : null}
              </Card>
            </RecordContextProvider>
          );
        })}
      </Box>
    </Box>
  );
}

/** A column that shows a value (has a `source`), as opposed to a cell of buttons. */
function isField(column: ReactElement): boolean {
  return typeof (column.props as { source?: unknown }).source === 'string';
}
