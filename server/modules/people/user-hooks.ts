import { isAcceptablePassword } from '../../credentials/password.ts';
import { revokeTokens } from '../../credentials/tokens.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import { staff } from '../../../resources/staff.ts';
import type { ResourceHooks } from '../../engine/hooks.ts';
import { asSystem } from '../../engine/system-access.ts';
import { assertCanManageUser, assertNotLastAdmin, forbidden, principalOf } from './guards.ts';

/**
 * User rules: nobody disables or deletes their own account; nobody but an administrator touches the
 * account of an administrator or of someone holding more names; the last administrator's account stays
 * enabled. Disabling an account or setting its password revokes every token it holds.
 */
export const userHooks: ResourceHooks = {
  async beforeWrite({ action, tx, data, before, actor }) {
    const principal = principalOf(actor);
    if (typeof data.password === 'string') {
      const sources = [data, before ?? {}];
      const identities = sources.flatMap((r) =>
        [r.username, r.email, r.phone].map((v) => v as string | null),
      );
      if (!isAcceptablePassword(data.password, { identities }))
        throw AppError.validation({ password: ['validation.password_format'] });
    }
    if (!before) return;
    await assertCanManageUser(tx, principal, before.id);
    const isSelf = before.id === principal.userId;
    const disables = action === 'delete' || (data.state === false && before.state === true);
    if (disables && isSelf) throw forbidden('self');
    if (disables) {
      const staffId = await adminStaffOf(tx, before.id);
      if (staffId) await assertNotLastAdmin(tx, staffId);
    }
    // A delete moves the account to the trash with its tokens (afterWrite runs for no delete): revoked here,
    // in the delete's transaction, so a restore brings back none of its sign-ins, as a hard delete took them.
    if (action === 'delete') await revokeTokens(tx, { userId: before.id });
  },

  async afterWrite({ action, tx, id, data, before }) {
    if (action !== 'update') return;
    const disabled = data.state === false && before?.state === true;
    if (disabled || typeof data.password === 'string') await revokeTokens(tx, { userId: id });
  },
};

async function adminStaffOf(db: Queryable, userId: string): Promise<string | null> {
  const admin = await asSystem(db).find<{ id: string }>(staff, {
    where: { user_id: userId, is_admin: 1, state: true },
    columns: ['id'],
  });
  return admin ? String(admin.id) : null;
}
