import Box from '@mui/material/Box';
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
  const { data } = useGetOne<{
    id: string;
    registered?: boolean;
    user_id?: string | null;
    email?: string | null;
    phone?: string | null;
    invitation_expires_at?: string | null;
  }>('staff', { id });
  return (
    // On a phone the form's save bar is fixed to the bottom of the screen: room below the last panel keeps
    // its buttons clear of it.
    <Box sx={{ pb: { xs: 10, sm: 0 } }}>
      <ResourceEdit resource={resource} />
      {data ? (
        <InvitationPanel
          key={id}
          staffId={id}
          isRegistered={data.registered === true}
          initialUrl={issuedInvitation(id)}
          expiresAt={data.invitation_expires_at ?? null}
          email={data.email ?? null}
          phone={data.phone ?? null}
        />
      ) : null}
      {data?.user_id ? <AccessCheckPanel key={`access-${id}`} userId={String(data.user_id)} /> : null}
      {data?.user_id ? <ResetFactorsPanel key={`mfa-${id}`} userId={String(data.user_id)} /> : null}
    </Box>
  );
}
