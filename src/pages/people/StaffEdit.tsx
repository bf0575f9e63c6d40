import { useGetOne, useGetRecordId } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import { ResourceEdit } from '../../engine/form/ResourceEdit.tsx';
import { AccessCheckPanel } from './AccessCheckPanel.tsx';
import { InvitationPanel } from './InvitationPanel.tsx';
import { issuedInvitation } from './issuedInvitations.ts';
import { ResetFactorsPanel } from './ResetFactorsPanel.tsx';

/**
 * `/settings/staff/{id}`: the generated staff form plus the registration status and invitation link, the
 * "check access" panel and the second-factor reset for a member with an account.
 */
export function StaffEdit({ resource }: { resource: Resource }) {
  const id = String(useGetRecordId());
  const { data } = useGetOne<{ id: string; registered?: boolean; user_id?: string | null }>('staff', { id });
  return (
    <>
      <ResourceEdit resource={resource} />
      {data ? (
        <InvitationPanel
          key={id}
          staffId={id}
          isRegistered={data.registered === true}
          initialUrl={issuedInvitation(id)}
        />
      ) : null}
      {data?.user_id ? <AccessCheckPanel key={`access-${id}`} userId={String(data.user_id)} /> : null}
      {data?.user_id ? <ResetFactorsPanel key={`mfa-${id}`} userId={String(data.user_id)} /> : null}
    </>
  );
}
