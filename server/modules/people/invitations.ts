import { randomToken, sha256 } from '../../credentials/tokens.ts';
import type { Queryable } from '../../db/index.ts';

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
  await db.query(
    'UPDATE staff SET invitation_hash = $2, invitation_expires_at = $3, updated_at = now() WHERE id = $1',
    [staffId, sha256(token), expiresAt],
  );
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
  const { rows: mine } = await db.query('SELECT 1 FROM staff WHERE user_id = $1', [userId]);
  if (mine.length) return { error: 'already_staff' };
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM staff
      WHERE invitation_hash = $1 AND user_id IS NULL AND invitation_expires_at > now() FOR UPDATE`,
    [sha256(token)],
  );
  const staffId = rows[0] ? String(rows[0].id) : null;
  if (!staffId) return { error: 'invalid' };
  await db.query(
    `UPDATE staff SET user_id = $2, invitation_hash = NULL, invitation_expires_at = NULL, updated_at = now()
      WHERE id = $1`,
    [staffId, userId],
  );
  return { staffId };
}
