import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { departments } from '../../resources/departments.ts';
import { isIdString, type Resource } from '../../resources/define.ts';
import { roles as rolesResource } from '../../resources/roles.ts';
import { users } from '../../resources/users.ts';
import { PERMISSION } from '../../schemas/permissions.ts';
import { ok } from '../core/envelope.ts';
import { AppError } from '../core/errors.ts';
import { permission, route } from '../core/route.ts';
import { can, type Principal } from '../core/principal.ts';
import type { Db } from '../db/index.ts';
import { permissionFor, type Action } from './access.ts';
import { loadPrincipal } from './accounts.ts';
import { restrictedFields } from './field-access.ts';
import { fieldLabel, type Lang } from './labels.ts';
import { fieldsOf } from './schema/fields.ts';
import { servedResources } from './served.ts';
import { idsInScope, rowScope, scopeColumnsOf } from './scope.ts';
import { asSystem } from './system-access.ts';

/** What `GET v1/user/access/explain` answers (contract amendment "Who sees which rows and fields"). */
export interface Explanation {
  can: { read: boolean; update: boolean; delete: boolean };
  because: string[];
  fields: Record<string, 'hidden' | 'read' | 'write'>;
}

const ACTIONS = ['read', 'update', 'delete'] as const satisfies readonly Action[];

/**
 * Why a user may or may not read, update and delete a record of a resource, and each field's access for
 * them: decided by the same functions every path uses (the user's principal as a sign-in loads it, its
 * permissions, `rowScope`/`idsInScope` and `restrictedFields`), so the explanation cannot drift from what
 * the engine does. Without `id` it explains the resource (its rows as a whole). 404 for an unknown user or
 * record, 422 for an unknown resource.
 */
export async function explainAccess(
  db: Db,
  registry: readonly Resource[],
  lang: Lang,
  query: { user_id: string; resource: string; id?: string | undefined },
): Promise<Explanation> {
  const resource = registry.find((r) => r.name === query.resource);
  if (!resource) throw AppError.validation({ resource: ['engine.explain.unknown_resource'] });
  const system = asSystem(db);
  const user = await system.find<{ id: string; username: string; state: boolean }>(users, {
    where: { id: query.user_id },
    columns: ['id', 'username', 'state'],
  });
  if (!user) throw AppError.notFound();
  if (query.id !== undefined) {
    const exists = await system.find(resource, { where: { id: query.id }, columns: ['id'] });
    if (!exists) throw AppError.notFound();
  }
  const principal = await loadPrincipal(db, { userId: String(user.id), tokenId: 'explain' });
  const t = (key: string, params: Record<string, unknown> = {}) => lang.t(`engine.explain.${key}`, params);
  const who = user.username;
  const what = resourceLabel(lang, resource);
  const because: string[] = [];
  const fields: Explanation['fields'] = {};
  for (const f of fieldsOf(resource)) fields[f.name] = 'write';

  if (!user.state) because.push(t('disabled', { user: who }));
  if (!principal.staff) {
    because.push(t('not_staff', { user: who }));
    for (const name of Object.keys(fields)) fields[name] = 'hidden';
    return { can: { read: false, update: false, delete: false }, because, fields };
  }
  if (principal.staff.isAdmin) {
    because.push(t('admin', { user: who }));
    const on = Boolean(user.state);
    return { can: { read: on, update: on, delete: on }, because, fields };
  }

  const names = await roleNames(db, principal);
  const rolesHolding = (permission: string) =>
    principal.roles.filter((r) => r.permissions.has(permission)).map((r) => names.get(r.id) ?? r.id);
  const granted = { read: false, update: false, delete: false };
  for (const action of ACTIONS) {
    const permission = permissionFor(resource, action);
    granted[action] = can(principal, permission);
    const holders = rolesHolding(permission);
    because.push(
      granted[action]
        ? t('granted', { action: t(`actions.${action}`), roles: holders.join(', '), permission })
        : t('not_granted', { action: t(`actions.${action}`), user: who, permission }),
    );
  }

  let inScope = true;
  if (!scopeColumnsOf(resource)) because.push(t('unscoped', { resource: what }));
  else if (granted.read || granted.update || granted.delete) {
    because.push(...(await scopeSentences(db, resource, principal, names, lang)));
    if (query.id !== undefined) {
      const scope = await rowScope(db, resource, principal);
      inScope = (await idsInScope(db, resource, scope, [query.id])).has(query.id);
      because.push(t(inScope ? 'in_scope' : 'out_of_scope', { id: query.id, resource: what }));
    }
  }

  for (const [name, access] of restrictedFields(principal, resource)) {
    fields[name] = access;
    because.push(t(`field_${access}`, { field: fieldLabel(lang, resource, name) }));
  }
  if (!granted.read) for (const name of Object.keys(fields)) fields[name] = 'hidden';
  else if (!granted.update)
    for (const [name, access] of Object.entries(fields)) if (access === 'write') fields[name] = 'read';

  const open = inScope && Boolean(user.state);
  return {
    can: { read: granted.read && open, update: granted.update && open, delete: granted.delete && open },
    because,
    fields,
  };
}

/** One sentence per role granting the resource: its data scope in words (departments by name). */
async function scopeSentences(
  db: Db,
  resource: Resource,
  principal: Principal,
  names: Map<string, string>,
  lang: Lang,
): Promise<string[]> {
  const read = permissionFor(resource, 'read');
  const granting = principal.roles.filter(
    (r) => r.permissions.has(read) || [...r.permissions].some((p) => p.startsWith(`${read}.`)),
  );
  const home = principal.staff?.departmentId ?? null;
  const ids = [...new Set([...(home ? [home] : []), ...granting.flatMap((r) => r.departmentIds)])];
  const found = ids.length
    ? await asSystem(db).list<{ id: string; name: string }>(departments, {
        where: { id: { in: ids } },
        columns: ['id', 'name'],
      })
    : [];
  const departmentName = new Map(found.map((d) => [String(d.id), d.name]));
  const t = (key: string, params: Record<string, unknown> = {}) => lang.t(`engine.explain.${key}`, params);
  return granting.map((role) => {
    const scope = t(`scopes.${role.dataScope}`);
    const where =
      role.dataScope === 'custom'
        ? role.departmentIds.map((id) => departmentName.get(id) ?? `#${id}`).join(', ') || t('none')
        : role.dataScope === 'department' || role.dataScope === 'department_and_below'
          ? home
            ? (departmentName.get(home) ?? `#${home}`)
            : t('no_department')
          : '';
    return t(where ? 'role_scope_in' : 'role_scope', {
      role: names.get(role.id) ?? role.id,
      scope,
      departments: where,
    });
  });
}

async function roleNames(db: Db, principal: Principal): Promise<Map<string, string>> {
  const ids = principal.roles.map((r) => r.id);
  if (!ids.length) return new Map();
  const rows = await asSystem(db).list<{ id: string; name: string }>(rolesResource, {
    where: { id: { in: ids } },
    columns: ['id', 'name'],
  });
  return new Map(rows.map((r) => [String(r.id), r.name]));
}

function resourceLabel(lang: Lang, resource: Resource): string {
  const key = `resources.${resource.name}.name`;
  const text = lang.t(key);
  return text === key ? resource.name : text;
}

const EXPLAIN_URL = '/api/v1/user/access/explain';
const idText = z
  .string()
  .regex(/^\d{1,19}$/)
  .refine(isIdString, { message: 'validation.invalid' });
const explanationSchema = z.object({
  can: z.object({ read: z.boolean(), update: z.boolean(), delete: z.boolean() }),
  because: z.array(z.string()),
  fields: z.record(z.string(), z.enum(['hidden', 'read', 'write'])),
});

/**
 * `GET v1/user/access/explain?user_id=&resource=&id=` (needs `system.users.roles`): the staff page's "check
 * access" panel asks it.
 */
export function registerExplainRoute(app: FastifyInstance, { db }: { db: Db }): void {
  // Once per app, over every served resource: a second resources module (a plug-in's) adds to the set.
  if (app.hasRoute({ method: 'GET', url: EXPLAIN_URL })) return;
  route(app, {
    method: 'GET',
    url: EXPLAIN_URL,
    tags: ['people'],
    summary: "Why a user may read, update and delete a record, and each field's access",
    access: permission(PERMISSION.usersRoles),
    query: z.object({ user_id: idText, resource: z.string().min(1).max(100), id: idText.optional() }),
    responses: { 200: explanationSchema },
    handler: async ({ query, request }) => ok(await explainAccess(db, servedResources(), request, query)),
  });
}
