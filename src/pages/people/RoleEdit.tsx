import { Edit } from 'react-admin';
import { RoleForm } from './RoleForm.tsx';

/** `/settings/roles/{id}`: the role form with the permission tree (only changed fields are sent). */
export function RoleEdit() {
  return (
    <Edit resource="roles" mutationMode="pessimistic" redirect="list">
      <RoleForm />
    </Edit>
  );
}
