import { activities } from '../../../resources/activities.ts';
import { staff } from '../../../resources/staff.ts';
import { paged } from '../../core/paged.ts';
import type { Principal } from '../../core/principal.ts';
import { AppError } from '../../core/errors.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { asSystem } from '../../engine/system-access.ts';
import { assertCanManageStaff, assertStaffInScope, forbidden, isAdmin } from './guards.ts';
import { issueInvitation } from './invitations.ts';
import { alreadyRegistered } from './staff-hooks.ts';

// The account routes' operations, Fastify-free (account-routes.ts checks the permission and calls these).

/**
 * A new invitation link for an unregistered staff record (the old one stops working): 404 for no such
 * record or one outside the principal's data scope, 409 once registered, 403 for an administrator's record
 * unless `principal` is one, or a record outside what `principal` may manage. `origin` starts the link.
 */
export async function reissueInvitation(
  db: Db,
  { principal, staffId, origin }: { principal: Principal; staffId: string; origin: string },
): Promise<{ invitation_url: string; invitation_expires_at: string }> {
  return db.transaction(async (tx) => {
    await assertStaffInScope(tx, principal, staffId);
    const record = await asSystem(tx).find<{ user_id: string | null; is_admin: number }>(staff, {
      where: { id: staffId },
      columns: ['user_id', 'is_admin'],
      lock: true,
    });
    if (!record) throw AppError.notFound();
    if (record.user_id !== null) throw alreadyRegistered();
    if (Number(record.is_admin) === 1 && !isAdmin(principal)) throw forbidden('manage_admin');
    await assertCanManageStaff(tx, principal, staffId);
    return issueInvitation(tx, { staffId, origin });
  });
}

/** One page of an account's sign-in history (sign-ins and refusals), newest first. */
export async function signInHistory(
  db: Queryable,
  { userId, page, size }: { userId: string; page: number; size: number },
) {
  const system = asSystem(db);
  const where = { subject_type: 'users', subject_id: userId, action: { startsWith: 'auth.login' } };
  const rows = await system.list<Record<string, unknown> & { created_at: unknown }>(activities, {
    where,
    columns: ['id', 'action', 'changes', 'ip', 'user_agent', 'created_at'],
    orderBy: [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ],
    limit: size,
    offset: (page - 1) * size,
  });
  const total = await system.count(activities, where);
  const data = rows.map((r) => ({
    ...r,
    id: String(r.id),
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  }));
  return paged(data, { total, page, size });
}
