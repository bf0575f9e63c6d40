import { AppError } from '../../core/errors.ts';
import { staff } from '../../../resources/staff.ts';
import { fieldAccessProblems, restrictedFields } from '../../engine/field-access.ts';
import { permissionFor } from '../../engine/access.ts';
import { departments } from '../../../resources/departments.ts';
import type { DataScope, Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import type { ResourceHooks } from '../../engine/hooks.ts';
import { servedResources } from '../../engine/served.ts';
import { asSystem } from '../../engine/system-access.ts';
import { assertHoldsAll, forbidden, grantableNames, isAdmin, principalOf } from './guards.ts';
import { writeAudit, type Actor } from '../../engine/write/audit.ts';
import { heldError } from '../../engine/write/trash-writes.ts';
import { idsInScope, rowScope } from '../../engine/scope.ts';

const menuIdsOf = (record: Record<string, unknown> | null | undefined): string[] =>
  ((record?.permissions as { menu_ids?: string[] } | undefined)?.menu_ids ?? []).map(String);

/**
 * Role rules: `menu_ids` holds only known permission names (deduplicated); `field_access` keys name fields
 * of the served resources (engine/served.ts, every resources module's) (field-access.ts `fieldAccessProblems`, a 422 naming each bad key); someone who is not an
 * administrator may only write roles whose names (before and after) they hold themselves, and never a
 * role they are a member of.
 */
export const roleHooks: ResourceHooks = {
  async beforeWrite({ action, tx, id, data, before, actor, detach }) {
    const principal = principalOf(actor);
    if (action === 'delete' && id !== null) await releaseHolders(tx, { id, actor, detach: detach === true });
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
    if (action !== 'delete') {
      assertHoldsAll(principal, menuIdsOf(data));
      await assertNoWiderThanEditor(tx, principal, data, before);
    }
  },
};

/**
 * A role editor who is not an administrator may not hand out more than it sees itself (issue 30): the
 * role's data scope lies within the editor's own (over its enabled roles: `all` allows anything; `department`
 * within `department_and_below`; `custom` departments among those the editor's scopes reach; `self` always),
 * and for every page the role grants, each field the editor may not see or write stays at least as
 * restricted in the role. 403 (`scope_wider`, `field_access_wider`) otherwise.
 */
async function assertNoWiderThanEditor(
  tx: Queryable,
  principal: Principal,
  data: Record<string, unknown>,
  before: Record<string, unknown> | null,
): Promise<void> {
  const pick = <T>(key: string, fallback: T): T =>
    (key in data ? data[key] : (before?.[key] ?? fallback)) as T;
  const scope = pick<DataScope>('data_scope', 'all');
  const own = principal.roles ?? [];
  if (!own.some((r) => r.dataScope === 'all')) {
    const home = principal.staff?.departmentId ?? null;
    const below = own.some((r) => r.dataScope === 'department_and_below');
    const atHome = below || own.some((r) => r.dataScope === 'department');
    const allowed =
      scope === 'self' ||
      (scope === 'department' && atHome) ||
      (scope === 'department_and_below' && below) ||
      scope === 'custom';
    if (!allowed) throw forbidden('scope_wider');
    if (scope === 'custom') {
      const wanted = pick<unknown[]>('data_scope_department_ids', []).map(String);
      const reach = new Set(own.flatMap((r) => (r.dataScope === 'custom' ? r.departmentIds : [])));
      if (home && atHome) reach.add(home);
      if (home && below)
        for (const id of await asSystem(tx).treeIds(departments, { ids: [home], direction: 'down' }))
          reach.add(id);
      if (wanted.some((id) => !reach.has(id))) throw forbidden('scope_wider');
    }
  }
  const access = pick<Record<string, string>>('field_access', {}) ?? {};
  const grants = new Set(menuIdsOf({ permissions: pick('permissions', { menu_ids: [] }) }));
  for (const resource of servedResources()) {
    if (!grants.has(permissionFor(resource, 'read'))) continue;
    for (const [field, mine] of restrictedFields(principal, resource)) {
      const theirs = access[`${resource.name}.${field}`];
      if (theirs === 'hidden' || theirs === mine) continue;
      throw forbidden('field_access_wider');
    }
  }
}

/**
 * A role that staff still hold is not deleted (409, `errors.holders` = how many), unless the call says
 * `?detach=1`: then it is taken from each holder first, each holder's change audited as a staff update.
 * Detaching writes every holder's staff record, so someone who is not an administrator may detach only
 * when every holder lies in their data scope on staff (issues 33/36: a record out of scope is not theirs
 * to change); otherwise 403 naming how many are outside it (no names: they are not the caller's to see),
 * and nothing changes.
 */
async function releaseHolders(
  tx: Queryable,
  { id, actor, detach }: { id: string; actor: Actor; detach: boolean },
): Promise<void> {
  const system = asSystem(tx);
  const links = await system.links(staff, { field: 'role_ids', ids: [id], by: 'target' });
  if (links.length === 0) return;
  const holders = await system.list<{ id: string | number }>(staff, {
    where: { id: { in: links.map((l) => l.owner) } },
    columns: ['id'],
  });
  if (holders.length === 0) return;
  if (!detach) throw heldError(holders.length, '', 'settings.people.errors.role_held');
  const principal = actor.principal;
  if (principal && !isAdmin(principal)) {
    const ids = holders.map((h) => String(h.id));
    const seen = await idsInScope(tx, staff, await rowScope(tx, staff, principal), ids);
    const outside = ids.filter((holder) => !seen.has(holder)).length;
    if (outside > 0)
      throw new AppError(403, 'settings.people.errors.role_held_outside_scope', {
        params: { count: outside },
        literal: { outside },
      });
  }
  const held = await system.links(staff, { field: 'role_ids', ids: holders.map((h) => String(h.id)) });
  for (const holder of holders) {
    const staffId = String(holder.id);
    const before = held.filter((l) => l.owner === staffId).map((l) => l.target);
    await system.unlink(staff, { field: 'role_ids', owner: staffId, target: id });
    const changes = { role_ids: [before, before.filter((r) => r !== id)] as [unknown, unknown] };
    await writeAudit(tx, { resource: staff, action: 'update', subjectId: staffId, changes, actor });
  }
}
