import { roles } from '../../resources/roles.ts';
import { staff } from '../../resources/staff.ts';
import { users } from '../../resources/users.ts';
import type { Accounts, DataScope, Principal, PrincipalRole } from '../core/principal.ts';
import type { Db, Queryable } from '../db/index.ts';
import { seesRecord } from './scope.ts';
import { asSystem } from './system-access.ts';

/**
 * What the layers below the engine need to know about accounts (core/principal.ts, credentials/tokens.ts,
 * the events stream), read through the engine's seam: the app hands `accounts` to `registerPrincipal`
 * (server/app.ts), so core code names no table the engine owns.
 */
export const accounts: Accounts = { loadPrincipal, enabledUsers, seesRecord };

/**
 * A user's enabled staff record, its enabled roles (each role's permission names, data scope and the
 * departments a `custom` scope names) and the permission names of those roles (union of their menu_ids).
 * Requests go through the per-process cache (core/auth-cache.ts), which every change to staff, roles or
 * grants drops on every server.
 */
export async function loadPrincipal(db: Db, owner: { userId: string; tokenId: string }): Promise<Principal> {
  const system = asSystem(db);
  const record = await system.find<{ id: string; is_admin: number; department_id: string | null }>(staff, {
    where: { user_id: owner.userId, state: true },
    columns: ['id', 'is_admin', 'department_id'],
  });
  const names = new Set<string>();
  const enabled: PrincipalRole[] = [];
  if (record) {
    const links = await system.links(staff, { field: 'role_ids', ids: [String(record.id)] });
    const held = await system.list<{
      id: string | number;
      permissions: { menu_ids?: unknown } | null;
      data_scope: DataScope | null;
      field_access: unknown;
    }>(roles, {
      where: { id: { in: links.map((l) => l.target) }, state: true },
      columns: ['id', 'permissions', 'data_scope', 'field_access'],
    });
    const custom = held.filter((r) => r.data_scope === 'custom').map((r) => String(r.id));
    const departmentsOf = new Map<string, string[]>();
    for (const link of await system.links(roles, { field: 'data_scope_department_ids', ids: custom }))
      departmentsOf.set(link.owner, [...(departmentsOf.get(link.owner) ?? []), link.target]);
    for (const role of held) {
      const ids = role.permissions?.menu_ids;
      const own = new Set(Array.isArray(ids) ? ids.map(String) : []);
      for (const id of own) names.add(id);
      enabled.push({
        id: String(role.id),
        permissions: own,
        dataScope: role.data_scope ?? 'all',
        departmentIds: departmentsOf.get(String(role.id)) ?? [],
        fieldAccess: fieldAccessOf(role.field_access),
      });
    }
  }
  return {
    userId: owner.userId,
    tokenId: owner.tokenId,
    staff: record
      ? { id: String(record.id), isAdmin: Number(record.is_admin) === 1, departmentId: record.department_id }
      : null,
    permissions: names,
    roles: enabled,
  };
}

/** A stored `field_access` value, keeping only the entries the engine understands. */
function fieldAccessOf(value: unknown): Record<string, 'hidden' | 'read'> {
  const out: Record<string, 'hidden' | 'read'> = {};
  if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [key, access] of Object.entries(value))
      if (access === 'hidden' || access === 'read') out[key] = access;
  return out;
}

/** Which of these user ids name an enabled account (a token of any other is not live). */
export async function enabledUsers(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  const found = await asSystem(db).list<{ id: string }>(users, {
    where: { id: { in: [...new Set(ids)] }, state: true },
    columns: ['id'],
  });
  return new Set(found.map((u) => String(u.id)));
}
