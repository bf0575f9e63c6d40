import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  Pagination,
  SelectInput,
  TextField,
  TextInput,
  useTranslate,
} from 'react-admin';
import { activities } from '../../../../resources/activities.ts';
import { resources } from '../../../../resources/index.ts';
import { ChangesField } from './ChangesField.tsx';
import { DateRangeInput } from './DateRangeInput.tsx';
import { OperatorInput } from './OperatorInput.tsx';

interface Activity {
  operator?: { id: string; username: string; name: string | null } | null;
  subject_type?: string | null;
  subject_id?: string | null;
}

/** Subject types: every resource of the registry plus the settings groups (audited by the settings module). */
const SUBJECT_TYPES = [...resources.map((r) => r.name), 'settings'];

/**
 * `/settings/activities`: who did what to which record, the changes (old -> new), address and time; filters
 * by operator, action, resource and date range. Read-only: no create, edit or delete anywhere.
 */
export function ActivityLogPage() {
  const translate = useTranslate();
  const filters = [
    <OperatorInput
      key="operator"
      source="operator_id"
      label="resources.activities.fields.operator"
      alwaysOn
    />,
    <TextInput key="action" source="action@like" label="resources.activities.fields.action" alwaysOn />,
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
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <FunctionField
          source="operator_id"
          label="resources.activities.fields.operator"
          sortable={false}
          render={(r: Activity) => (r.operator ? r.operator.name || r.operator.username : '-')}
        />
        <TextField source="action" />
        <FunctionField
          source="subject_type"
          label="resources.activities.fields.subject"
          render={(r: Activity) =>
            [
              r.subject_type &&
                translate(`resources.${r.subject_type}.name`, { smart_count: 1, _: r.subject_type }),
              r.subject_id,
            ]
              .filter(Boolean)
              .join(' #')
          }
        />
        <ChangesField label="resources.activities.fields.changes" />
        <TextField source="ip" sortable={false} />
        <DateField source="created_at" showTime />
      </Datagrid>
    </List>
  );
}
