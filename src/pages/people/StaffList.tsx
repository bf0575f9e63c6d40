import type { ResourceDescriptor as Resource } from '../../engine/data/descriptor.ts';
import { ResourceList } from '../../engine/list/ResourceList.tsx';
import { DepartmentTreeInput } from './DepartmentTreeInput.tsx';

/**
 * `/settings/staff`: the generated list (masked phone and email, filters name, phone, department, role,
 * state, live refresh), except that the department filter is a tree select that includes sub-departments.
 */
export function StaffList({ resource }: { resource: Resource }) {
  return (
    <ResourceList
      resource={resource}
      filterInputs={{
        department_id: <DepartmentTreeInput key="department_id" source="department_id" alwaysOn />,
      }}
    />
  );
}
