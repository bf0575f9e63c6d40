import type { ResourceDescriptor as Resource } from '../../engine/data/descriptor.ts';
import { TreeReferenceInput } from '../../engine/fields/tree/TreeReferenceInput.tsx';
import { ResourceList } from '../../engine/list/ResourceList.tsx';

/**
 * `/settings/staff`: the generated list (masked phone and email, filters name, phone, department, role,
 * state, live refresh). The department filter is always shown: the engine's tree picker (departments are a
 * tree), matching the department and all its sub-departments (the server's department filter does that).
 */
export function StaffList({ resource }: { resource: Resource }) {
  return (
    <ResourceList
      resource={resource}
      filterInputs={{
        department_id: (
          <TreeReferenceInput
            key="department_id"
            source="department_id"
            resource="staff"
            reference="departments"
            isRequired={false}
            isFilter
            alwaysOn
          />
        ),
      }}
    />
  );
}
