import { randomToken, sha256 } from '../../credentials/tokens.ts';
import { staff } from '../../../resources/staff.ts';
import type { Queryable } from '../../db/index.ts';
import { asSystem, NOW } from '../../engine/system-access.ts';

/** Invitations expire 7 days after they are issued. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Issues a fresh invitation for an unregistered staff record: a random token whose SHA-256 is stored (a
 * re-issue replaces the previous one, which stops working). Returns the link to hand to the invitee.
 */
export async function issueInvitation(
  db: Queryable,
  { staffId, origin }: { staffId: string; origin: string },
): Promise<{ invitation_url: string; invitation_expires_at: string }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  await asSystem(db).update(staff, {
    where: { id: staffId },
    set: { invitation_hash: sha256(token), invitation_expires_at: expiresAt, updated_at: NOW },
  });
  return {
    invitation_url: `${origin}/register?invitation=${encodeURIComponent(token)}`,
    invitation_expires_at: expiresAt.toISOString(),
  };
}

/**
 * Binds `userId` to the staff record the invitation names, if it is valid (known, unused, not expired)
 * and the user is not staff yet. Single use: the hash is cleared. Returns the staff id, or why it failed.
 */
export async function redeemInvitation(
  db: Queryable,
  { token, userId }: { token: string; userId: string },
): Promise<{ staffId: string } | { error: 'invalid' | 'already_staff' }> {
  const system = asSystem(db);
  if (await system.exists(staff, { user_id: userId })) return { error: 'already_staff' };
  const invited = await system.find<{ id: string }>(staff, {
    where: { invitation_hash: sha256(token), user_id: null, invitation_expires_at: { gt: NOW } },
    columns: ['id'],
    lock: true,
  });
  const staffId = invited ? String(invited.id) : null;
  if (!staffId) return { error: 'invalid' };
  await system.update(staff, {
    where: { id: staffId },
    set: { user_id: userId, invitation_hash: null, invitation_expires_at: null, updated_at: NOW },
  });
  return { staffId };
}
