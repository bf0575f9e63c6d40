import { httpClient } from '../../providers/httpClient.ts';

/**
 * After signing in or registering through an invitation link (`/register?invitation=<token>`), binds the
 * new session to the invited staff record (`POST v1/user/join`). Returns whether it worked; a used or
 * expired link leaves the account as it is (the person then asks for a new link).
 *
 * @example
 * await joinInvitation(searchParams.get('invitation'));
 */
export async function joinInvitation(invitation: string | null): Promise<boolean> {
  if (!invitation) return false;
  try {
    await httpClient('v1/user/join', { method: 'POST', body: { invitation } });
    return true;
  } catch {
    return false;
  }
}
