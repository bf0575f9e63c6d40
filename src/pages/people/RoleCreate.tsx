import { Create } from 'react-admin';
import { RoleForm } from './RoleForm.tsx';

/** `/settings/roles/create`: the role form with the permission tree. */
export function RoleCreate() {
  return (
    <Create
      resource="roles"
      redirect="list"
      record={{ state: true, sort: 0, intro: '', permissions: { menu_ids: [] } }}
    >
      <RoleForm />
    </Create>
  );
}
