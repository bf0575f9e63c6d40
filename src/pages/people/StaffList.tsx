import { BulkDeleteButton, Datagrid, EditButton, List, Pagination, useResourceDefinition } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import { DeleteRecordButton } from '../../engine/DeleteRecordButton.tsx';
import { renderField } from '../../engine/fieldTable.tsx';
import { renderInput } from '../../engine/inputTable.tsx';
import { ListActions } from '../../engine/ListActions.tsx';
import { ListEmpty } from '../../engine/ListEmpty.tsx';
import { defaultSortOf, filterFields, listFields, sortableFields } from '../../engine/registry.ts';
import { useAbilities } from '../../engine/useAbilities.ts';
import { DepartmentTreeInput } from './DepartmentTreeInput.tsx';

/**
 * `/settings/staff`: the generated list (masked phone and email, filters name, phone, department, role,
 * state), except that the department filter is a tree select that includes sub-departments.
 */
export function StaffList({ resource }: { resource: Resource }) {
  const can = useAbilities(resource);
  const { hasEdit } = useResourceDefinition({ resource: resource.name });
  const sortable = sortableFields(resource);
  const filters = filterFields(resource).map((field, index) =>
    field.name === 'department_id' ? (
      <DepartmentTreeInput key={field.name} source={field.name} alwaysOn />
    ) : (
      renderInput(field, { resource: resource.name, isFilter: true, alwaysOn: index < 2 })
    ),
  );
  return (
    <List
      resource={resource.name}
      sort={defaultSortOf(resource)}
      perPage={15}
      filters={filters}
      actions={<ListActions resource={resource} hasFilters can={can} />}
      pagination={<Pagination rowsPerPageOptions={[15, 20, 50, 100]} />}
      empty={<ListEmpty resource={resource} can={can} />}
    >
      <Datagrid
        rowClick={hasEdit && can.update ? 'edit' : false}
        bulkActionButtons={can.delete ? <BulkDeleteButton mutationMode="pessimistic" /> : false}
      >
        {listFields(resource).map((field) =>
          renderField(field, {
            resource: resource.name,
            sortable: sortable.has(field.name),
            isListCell: true,
          }),
        )}
        {hasEdit && can.update ? <EditButton /> : null}
        {can.delete ? <DeleteRecordButton resource={resource} /> : null}
      </Datagrid>
    </List>
  );
}
