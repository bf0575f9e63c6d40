import { grantablePermissionNames, settingsMenu, type MenuItem } from '../../../schemas/permissions.ts';
import { AppError } from '../../core/errors.ts';
import { can, type Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import type { Actor } from '../../engine/write/audit.ts';
import { servedResources } from '../../engine/served.ts';

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
  return grantablePermissionNames(items ?? settingsMenu(servedResources()));
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
  const { rows } = await db.query<{ name: string }>(
    `SELECT DISTINCT m AS name FROM roles r, jsonb_array_elements_text(r.permissions -> 'menu_ids') m
      WHERE r.id IN (${roleIds.map((_, i) => `$${i + 1}`).join(', ')})`,
    [...roleIds],
  );
  return rows.map((r) => r.name);
}

/** A staff record's admin flag and the names its roles grant. */
export async function staffPower(
  db: Queryable,
  staffId: string,
): Promise<{ isAdmin: boolean; names: string[] } | null> {
  const { rows } = await db.query<{ is_admin: number }>('SELECT is_admin FROM staff WHERE id = $1', [
    staffId,
  ]);
  if (!rows[0]) return null;
  const { rows: links } = await db.query<{ role_id: string }>(
    'SELECT role_id FROM staff_roles WHERE staff_id = $1',
    [staffId],
  );
  const names = await namesOfRoles(
    db,
    links.map((l) => String(l.role_id)),
  );
  return { isAdmin: Number(rows[0].is_admin) === 1, names };
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

/** The same for a user account: through the staff record bound to it, if any. */
export async function assertCanManageUser(
  db: Queryable,
  principal: Principal,
  userId: string,
): Promise<void> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM staff WHERE user_id = $1', [userId]);
  if (rows[0]) await assertCanManageStaff(db, principal, String(rows[0].id));
}

/**
 * 409 when the staff record `staffId` is the last enabled administrator who can sign in. Locks the
 * administrator rows, so two concurrent demotions cannot both pass.
 */
export async function assertNotLastAdmin(db: Queryable, staffId: string): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT s.id FROM staff s JOIN users u ON u.id = s.user_id
      WHERE s.is_admin = 1 AND s.state AND u.state FOR UPDATE OF s`,
  );
  const ids = rows.map((r) => String(r.id));
  if (ids.includes(String(staffId)) && ids.length <= 1)
    throw new AppError(409, 'settings.people.errors.last_admin', {
      fields: { is_admin: ['settings.people.errors.last_admin'] },
    });
}

export function forbidden(reason: string): AppError {
  return new AppError(403, `settings.people.errors.${reason}`);
}
