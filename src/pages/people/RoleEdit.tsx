import { Edit, SaveButton, Toolbar } from 'react-admin';
import { RoleForm } from './RoleForm.tsx';
import { DeleteRecordButton } from '../../engine/form/DeleteRecordButton.tsx';
import { findDescriptor } from '../../engine/data/registry.ts';
import { useAbilities } from '../../engine/data/useAbilities.ts';

const roles = findDescriptor('roles')!;

/**
 * `/settings/roles/{id}`: the role form with the permission tree (only changed fields are sent). Its delete
 * moves the role to the trash; while staff hold it the server refuses (409, `errors.holders`) and the
 * button's second dialog offers "Remove from N staff and delete" (`?detach=1`).
 */
export function RoleEdit() {
  const can = useAbilities(roles);
  return (
    <Edit resource="roles" mutationMode="pessimistic" redirect="list">
      <RoleForm
        toolbar={
          <Toolbar sx={{ justifyContent: 'space-between' }}>
            <SaveButton />
            {can.delete ? <DeleteRecordButton resource={roles} redirect="list" /> : null}
          </Toolbar>
        }
      />
    </Edit>
  );
}
