import Box from '@mui/material/Box';
import {
  AutocompleteInput,
  Datagrid,
  FunctionField,
  List,
  Pagination,
  SelectInput,
  TextField,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useTranslation } from 'react-i18next';
import { activities } from '../../../../resources/activities.ts';
import { resources } from '../../../../resources/index.ts';
import { ActivityAction, ActivityChanges, ActivityOperator, ActivitySubject } from './ActivityText.tsx';
import { actionChoices, type ActivityRow } from './describe.ts';
import { DateRangeInput } from './DateRangeInput.tsx';
import { LocaleDateField } from '../../../engine/fields/LocaleDateField.tsx';
import { OperatorInput } from './OperatorInput.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { UndoOperationButton } from './UndoOperationButton.tsx';

/** Subject types: every resource of the registry plus the settings groups (audited by the settings module). */
const SUBJECT_TYPES = [...resources.map((r) => r.name), 'settings'];

/**
 * `/settings/activities`: who did what to which record, the changes (old -> new), address and time, all in
 * words (./describe.ts: action names, the subject linked by its name, field labels, references by name);
 * filters by operator, action, resource and date range. Read-only: no create, edit or delete anywhere.
 */
export function ActivityLogPage() {
  const translate = useTranslate();
  const { t, i18n } = useTranslation();
  const filters = [
    <OperatorInput
      key="operator"
      source="operator_id"
      label="resources.activities.fields.operator"
      alwaysOn
    />,
    // By the action's name in the current language (the stored key is what is sent: `action=staff.create`).
    <AutocompleteInput
      key="action"
      source="action"
      label="resources.activities.fields.action"
      choices={actionChoices(t, i18n.language)}
      alwaysOn
    />,
    <SelectInput
      key="subject"
      source="subject_type"
      label="resources.activities.fields.subject_type"
      choices={SUBJECT_TYPES.map((name) => ({
        id: name,
        name: translate(`resources.${name}.name`, { smart_count: 1, _: name }),
      }))}
      alwaysOn
    />,
    <DateRangeInput
      key="range"
      source="created_at@between"
      label="resources.activities.fields.created_at"
      alwaysOn
    />,
  ];
  return (
    <List
      resource={activities.name}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={15}
      filters={filters}
      actions={false}
      pagination={<Pagination rowsPerPageOptions={[15, 50, 100]} />}
      // react-admin's list column is a flex item as wide as its table by default: let it shrink to the
      // screen, so the table scrolls in its own box.
      sx={{ '& .RaList-main': { minWidth: 0 } }}
    >
      <TableScroll label={translate('resources.activities.name', { smart_count: 2 })}>
        <Datagrid rowClick={false} bulkActionButtons={false}>
          <FunctionField
            source="operator_id"
            label="resources.activities.fields.operator"
            sortable={false}
            render={(r: ActivityRow) => <ActivityOperator row={r} />}
          />
          <FunctionField
            source="action"
            label="resources.activities.fields.action"
            render={(r: ActivityRow) => <ActivityAction row={r} />}
          />
          <FunctionField
            source="subject_type"
            label="resources.activities.fields.subject"
            render={(r: ActivityRow) => <ActivitySubject row={r} />}
          />
          <ChangesCell label="resources.activities.fields.changes" />
          <TextField source="ip" sortable={false} />
          <LocaleDateField source="created_at" showTime />
          <FunctionField
            source="undoable"
            label="engine.undo_log.column"
            sortable={false}
            render={() => <UndoOperationButton />}
          />
        </Datagrid>
      </TableScroll>
    </List>
  );
}

/** The changes of the row in words; the page's rows share the dictionaries they need. */
function ChangesCell({ label: _label }: { label?: string }) {
  const record = useRecordContext<ActivityRow>();
  const { data } = useListContext<ActivityRow>();
  // A readable width of its own: in a narrow table the changes would otherwise wrap a character per line.
  return record ? (
    <Box sx={{ minWidth: '14em' }}>
      <ActivityChanges row={record} rows={data ?? [record]} />
    </Box>
  ) : null;
}
