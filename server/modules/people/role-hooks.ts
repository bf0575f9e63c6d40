import { AppError } from '../../core/errors.ts';
import { staff } from '../../../resources/staff.ts';
import { fieldAccessProblems } from '../../engine/field-access.ts';
import type { ResourceHooks } from '../../engine/hooks.ts';
import { servedResources } from '../../engine/served.ts';
import { asSystem } from '../../engine/system-access.ts';
import { assertHoldsAll, forbidden, grantableNames, isAdmin, principalOf } from './guards.ts';

const menuIdsOf = (record: Record<string, unknown> | null | undefined): string[] =>
  ((record?.permissions as { menu_ids?: string[] } | undefined)?.menu_ids ?? []).map(String);

/**
 * Role rules: `menu_ids` holds only known permission names (deduplicated); `field_access` keys name fields
 * of the served resources (engine/served.ts, every resources module's) (field-access.ts `fieldAccessProblems`, a 422 naming each bad key); someone who is not an
 * administrator may only write roles whose names (before and after) they hold themselves, and never a
 * role they are a member of.
 */
export const roleHooks: ResourceHooks = {
  async beforeWrite({ action, tx, data, before, actor }) {
    const principal = principalOf(actor);
    if ('field_access' in data) {
      const problems = fieldAccessProblems(data.field_access, servedResources());
      if (Object.keys(problems).length)
        throw new AppError(422, 'errors.validation', {
          fields: Object.fromEntries(
            Object.entries(problems).map(([key, problem]) => [
              `field_access.${key}`.slice(0, 200),
              [`settings.people.errors.field_access_${problem}`],
            ]),
          ),
        });
    }
    if ('permissions' in data) {
      const names = [...new Set(menuIdsOf(data))];
      const grantable = grantableNames();
      const unknown = names.filter((n) => !grantable.has(n));
      if (unknown.length)
        throw new AppError(422, 'errors.validation', {
          fields: { permissions: ['settings.people.errors.unknown_permission'] },
        });
      data.permissions = { menu_ids: names };
    }
    if (isAdmin(principal)) return;
    if (before) {
      const mine = await asSystem(tx).links(staff, { field: 'role_ids', ids: [principal.staff.id] });
      if (mine.some((link) => link.target === String(before.id))) throw forbidden('own_roles');
      assertHoldsAll(principal, menuIdsOf(before));
    }
    if (action !== 'delete') assertHoldsAll(principal, menuIdsOf(data));
  },
};
