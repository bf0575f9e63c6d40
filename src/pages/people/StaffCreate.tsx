import { Create, useNotify, useRedirect } from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import { draftStore } from '../../engine/form/draftStore.ts';
import { formPayload } from '../../engine/form/formPayload.ts';
import { ResourceForm } from '../../engine/form/ResourceForm.tsx';
import { rememberIssuedInvitation } from './issuedInvitations.ts';

/**
 * `/settings/staff/create`: the generated form; after saving it opens the new record, whose page shows the
 * invitation link the server returned with the create (it is not stored in a readable form).
 */
export function StaffCreate({ resource }: { resource: Resource }) {
  const draftKey = draftStore.key(resource.name, undefined);
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = (data: RaRecord) => {
    draftStore.clear(draftKey);
    if (typeof data.invitation_url === 'string')
      rememberIssuedInvitation(String(data.id), data.invitation_url);
    notify('engine.notification.saved', { type: 'success' });
    redirect('edit', resource.name, data.id);
  };
  return (
    <Create
      resource={resource.name}
      mutationOptions={{ onSuccess }}
      transform={(values: Record<string, unknown>) => formPayload({ resource, values, isEdit: false })}
    >
      <ResourceForm resource={resource} isEdit={false} draftKey={draftKey} />
    </Create>
  );
}
