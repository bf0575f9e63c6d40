import { useQuery } from '@tanstack/react-query';
import { SelectInput, useTranslate } from 'react-admin';
import { httpClient } from '../../providers/httpClient.ts';
import type { DepartmentNode } from './useDepartmentTree.ts';

/**
 * A department picked from the tree (`GET v1/user/department/tree`), indented by depth. As a staff list
 * filter it matches the department and all its sub-departments (the server's department filter does that).
 */
export function DepartmentTreeInput({ source, alwaysOn }: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  const { data } = useQuery({
    queryKey: ['people', 'department-tree'],
    queryFn: () => httpClient<DepartmentNode[]>('v1/user/department/tree'),
  });
  return (
    <SelectInput
      source={source}
      alwaysOn={alwaysOn}
      label={translate('resources.staff.fields.department_id')}
      choices={flatten(data ?? [])}
    />
  );
}

function flatten(nodes: DepartmentNode[], depth = 0): { id: string; name: string }[] {
  return nodes.flatMap((n) => [
    { id: n.id, name: `${'\u2003'.repeat(depth)}${n.title}` },
    ...flatten(n.children, depth + 1),
  ]);
}
