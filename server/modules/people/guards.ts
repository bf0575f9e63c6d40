import { grantablePermissionNames, settingsMenu, type MenuItem } from '../../../schemas/permissions.ts';
import { AppError } from '../../core/errors.ts';
import { can, type Principal } from '../../core/principal.ts';
import { roles } from '../../../resources/roles.ts';
import { staff } from '../../../resources/staff.ts';
import { users } from '../../../resources/users.ts';
import type { Queryable } from '../../db/index.ts';
import { asSystem } from '../../engine/system-access.ts';
import type { Actor } from '../../engine/write/audit.ts';
import { servedPages, servedResources } from '../../engine/served.ts';
import { idsInScope, rowScope } from '../../engine/scope.ts';
import { isIdString } from '../../../resources/define.ts';

/**
 * The no-self-escalation rules shared by the staff, role and user hooks: nobody grants a name they do not
 * hold, nobody manages someone who holds more than they do, and the last administrator stays.
 */
export type StaffPrincipal = Principal & { staff: NonNullable<Principal['staff']> };

/**
 * Every name a role may hold: groups, pages, and the `<page>.<action>` names each page declares, the pages of
 * every served resource included (their actions follow the operations each one has).
 */
export function grantableNames(items?: readonly MenuItem[]): Set<string> {
  return grantablePermissionNames(items ?? settingsMenu(servedResources(), undefined, servedPages()));
}

/** The staff principal behind an engine write (routes always set it). */
export function principalOf(actor: Actor): StaffPrincipal {
  const principal = actor.principal;
  if (!principal?.staff) throw AppError.forbidden();
  return principal as StaffPrincipal;
}

export const isAdmin = (p: Principal): boolean => p.staff?.isAdmin === true;

/** 403 unless the caller holds every one of `names` (admins hold all). */
export function assertHoldsAll(principal: Principal, names: Iterable<string>): void {
  for (const name of names) if (!can(principal, name)) throw forbidden('grant');
}

/** The names the given roles grant (all of them, enabled or not: enabling a role later grants them too). */
export async function namesOfRoles(db: Queryable, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const granted = await asSystem(db).list<{ permissions: unknown }>(roles, {
    where: { id: { in: roleIds } },
    columns: ['permissions'],
  });
  return [...new Set(granted.flatMap((r) => menuIdsOf(r.permissions)))];
}

/** A staff record's admin flag and the names its roles grant. */
export async function staffPower(
  db: Queryable,
  staffId: string,
): Promise<{ isAdmin: boolean; names: string[] } | null> {
  const system = asSystem(db);
  const found = await system.find<{ is_admin: number }>(staff, {
    where: { id: staffId },
    columns: ['is_admin'],
  });
  if (!found) return null;
  const links = await system.links(staff, { field: 'role_ids', ids: [staffId] });
  const names = await namesOfRoles(
    db,
    links.map((l) => l.target),
  );
  return { isAdmin: Number(found.is_admin) === 1, names };
}

/**
 * 403 unless the caller may manage this staff record: administrators manage everyone; others only people
 * who are not administrators and hold no name the caller lacks.
 */
export async function assertCanManageStaff(
  db: Queryable,
  principal: Principal,
  staffId: string,
): Promise<void> {
  if (isAdmin(principal)) return;
  const power = await staffPower(db, staffId);
  if (!power) return;
  if (power.isAdmin) throw forbidden('manage_admin');
  for (const name of power.names) if (!can(principal, name)) throw forbidden('manage_stronger');
}

/**
 * 404 unless the staff record `staffId` lies in the principal's data scope on staff (contract: a record out
 * of scope is a 404 on every path), for the people module's own routes on one staff record (invitations).
 */
export async function assertStaffInScope(
  db: Queryable,
  principal: Principal,
  staffId: string,
): Promise<void> {
  if (!isIdString(staffId)) throw AppError.notFound();
  const scope = await rowScope(db, staff, principal);
  if (!(await idsInScope(db, staff, scope, [staffId])).has(staffId)) throw AppError.notFound();
}

/** The same for a user account: through the staff record bound to it, if any. */
export async function assertCanManageUser(
  db: Queryable,
  principal: Principal,
  userId: string,
): Promise<void> {
  const bound = await asSystem(db).find<{ id: string }>(staff, {
    where: { user_id: userId },
    columns: ['id'],
  });
  if (bound) await assertCanManageStaff(db, principal, String(bound.id));
}

/**
 * 409 when the staff record `staffId` is the last enabled administrator who can sign in. Locks the
 * administrator rows, so two concurrent demotions cannot both pass.
 */
export async function assertNotLastAdmin(db: Queryable, staffId: string): Promise<void> {
  const system = asSystem(db);
  const admins = await system.list<{ id: string; user_id: string | null }>(staff, {
    where: { is_admin: 1, state: true, user_id: { not: null } },
    columns: ['id', 'user_id'],
    lock: true,
  });
  const enabled = await system.list<{ id: string }>(users, {
    where: { id: { in: admins.map((a) => a.user_id) }, state: true },
    columns: ['id'],
  });
  const canSignIn = new Set(enabled.map((u) => String(u.id)));
  const ids = admins.filter((a) => canSignIn.has(String(a.user_id))).map((a) => String(a.id));
  if (ids.includes(String(staffId)) && ids.length <= 1)
    throw new AppError(409, 'settings.people.errors.last_admin', {
      fields: { is_admin: ['settings.people.errors.last_admin'] },
    });
}

/** The permission names a role's `permissions` value lists. */
export function menuIdsOf(permissions: unknown): string[] {
  const ids = (permissions as { menu_ids?: unknown } | null)?.menu_ids;
  return Array.isArray(ids) ? ids.map(String) : [];
}

export function forbidden(reason: string): AppError {
  return new AppError(403, `settings.people.errors.${reason}`);
}
