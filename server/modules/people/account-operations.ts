import { paged } from '../../core/paged.ts';
import type { Principal } from '../../core/principal.ts';
import { AppError } from '../../core/errors.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { assertCanManageStaff, forbidden, isAdmin } from './guards.ts';
import { issueInvitation } from './invitations.ts';
import { alreadyRegistered } from './staff-hooks.ts';

// The account routes' operations, Fastify-free (account-routes.ts checks the permission and calls these).

/**
 * A new invitation link for an unregistered staff record (the old one stops working): 404 for no such
 * record, 409 once registered, 403 for an administrator's record unless `principal` is one, or a record
 * outside what `principal` may manage. `origin` starts the link.
 */
export async function reissueInvitation(
  db: Db,
  { principal, staffId, origin }: { principal: Principal; staffId: string; origin: string },
): Promise<{ invitation_url: string; invitation_expires_at: string }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_id: string | null; is_admin: number }>(
      'SELECT user_id, is_admin FROM staff WHERE id = $1 FOR UPDATE',
      [staffId],
    );
    if (!rows[0]) throw AppError.notFound();
    if (rows[0].user_id !== null) throw alreadyRegistered();
    if (Number(rows[0].is_admin) === 1 && !isAdmin(principal)) throw forbidden('manage_admin');
    await assertCanManageStaff(tx, principal, staffId);
    return issueInvitation(tx, { staffId, origin });
  });
}

/** One page of an account's sign-in history (sign-ins and refusals), newest first. */
export async function signInHistory(
  db: Queryable,
  { userId, page, size }: { userId: string; page: number; size: number },
) {
  const where = `subject_type = 'users' AND subject_id = $1 AND action LIKE 'auth.login%'`;
  const { rows } = await db.query(
    `SELECT id, action, changes, ip, user_agent, created_at FROM activity_logs WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${size} OFFSET ${(page - 1) * size}`,
    [userId],
  );
  const { rows: count } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM activity_logs WHERE ${where}`,
    [userId],
  );
  const total = Number(count[0]!.n);
  const data = rows.map((r) => ({
    ...r,
    id: String(r.id),
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  }));
  return paged(data, { total, page, size });
}
