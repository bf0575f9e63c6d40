import { Edit, SaveButton, Toolbar, useGetRecordId, useNotify, useRedirect } from 'react-admin';
import { RoleForm } from './RoleForm.tsx';
import { ChangedUnderneathBanner } from '../../events/ChangedUnderneathBanner.tsx';
import { DeleteRecordButton } from '../../engine/form/DeleteRecordButton.tsx';
import { HistoryPanel } from '../../engine/form/HistoryPanel.tsx';
import { PresenceNotice } from '../../engine/form/PresenceNotice.tsx';
import { useVersionConflict } from '../../engine/form/useVersionConflict.ts';
import { VersionConflict } from '../../engine/form/VersionConflict.tsx';
import { findDescriptor } from '../../engine/data/registry.ts';
import { useAbilities } from '../../engine/data/useAbilities.ts';
import { roles as rolesResource } from '../../../resources/roles.ts';

const roles = findDescriptor('roles')!;

/**
 * `/settings/roles/{id}`: the role form with the permission tree (only changed fields are sent, over the
 * version the form was loaded with). Like the generated edit screen it says who else is editing and when
 * the role changed elsewhere, shows "yours" and "theirs" after a stale save (409) and the role's history
 * with "restore this version". Its delete moves the role to the trash; while staff hold it the server
 * refuses (409, `errors.holders`) and the button's second dialog offers "Remove from N staff and delete"
 * (`?detach=1`).
 */
export function RoleEdit() {
  const id = useGetRecordId();
  const can = useAbilities(roles);
  const notify = useNotify();
  const redirect = useRedirect();
  const versions = useVersionConflict('roles');
  return (
    <Edit
      resource="roles"
      mutationMode="pessimistic"
      mutationOptions={{
        onSuccess: () => {
          versions.clear();
          notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
          redirect('list', 'roles');
        },
        onError: versions.onError,
      }}
      transform={versions.remember}
    >
      <PresenceNotice resource="roles" id={id} />
      <ChangedUnderneathBanner resource="roles" id={id} />
      <RoleForm
        keepTyped={versions.conflict !== null}
        notice={
          versions.conflict ? <VersionConflict resource={rolesResource} conflict={versions.conflict} /> : null
        }
        toolbar={
          <Toolbar sx={{ justifyContent: 'space-between' }}>
            <SaveButton />
            {can.delete ? <DeleteRecordButton resource={roles} redirect="list" /> : null}
          </Toolbar>
        }
      />
      <HistoryPanel resource={rolesResource} id={id} />
    </Edit>
  );
}
