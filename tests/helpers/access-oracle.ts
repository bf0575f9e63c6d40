import type { Resource } from '../../resources/define.ts';

/**
 * The access oracle of the generated access tests (issue 30, 7): who may see and write which records and
 * fields, computed in plain TypeScript from the contract (Amendments 2026-11-26, "Who sees which rows and
 * fields") over the data the test itself created. It shares no code with the engine: it knows the tree, the
 * roles, the callers and each record's department and author because the test chose them.
 *
 * Example:
 * ```ts
 * const world: OracleWorld = { departments: [{ id: '1', parentId: '0' }], roles: [role] };
 * const visible = visibleIds(world, caller, oracleResource(staff), records);
 * ```
 */

export type DataScope = 'all' | 'department_and_below' | 'department' | 'self' | 'custom';
export type FieldLevel = 'hidden' | 'read' | 'write';

export interface OracleRole {
  id: string;
  /** A disabled role (`state` false) grants nothing. */
  enabled: boolean;
  /** Its `permissions.menu_ids`. */
  permissions: readonly string[];
  dataScope: DataScope;
  /** `data_scope_department_ids`, for `custom`. */
  departmentIds: readonly string[];
  /** `field_access`: `"<resource>.<field>"` -> `hidden` | `read`. */
  fieldAccess: Readonly<Record<string, 'hidden' | 'read'>>;
}

export interface OracleCaller {
  userId: string;
  staffId: string | null;
  /** The caller's staff record's `department_id` (null: none). */
  departmentId: string | null;
  isAdmin: boolean;
  roleIds: readonly string[];
}

export interface OracleWorld {
  /** Every department (`parentId` "0" for a root). */
  departments: readonly { id: string; parentId: string }[];
  roles: readonly OracleRole[];
}

/**
 * What a resource's rows are scoped by: `department` names the column holding a department id (`id` for the
 * departments themselves, whose subtree is their own), `owner` the column of the creating user; null for
 * neither. `self`: the column holding the user a record *is* (staff's `user_id`), which a `self` role also
 * sees.
 */
export interface ScopeColumns {
  department: string | null;
  owner: string | null;
  self: string | null;
}

export interface OracleResource {
  name: string;
  /** The read permission (the resource's page name); actions are `<permission>.<action>`. */
  permission: string;
  /** null: unscoped, every caller that may read it sees every row. */
  scope: ScopeColumns | null;
  /**
   * Computed fields -> the fields each is computed from (its declaration's `c()` columns or the record keys
   * its function reads): hidden whenever one of those is hidden, as the value would tell it.
   */
  derived?: Readonly<Record<string, readonly string[]>>;
}

/** A row as the oracle knows it: the values of its scope columns (department column, `created_by`). */
export type OracleRecord = Readonly<Record<string, unknown>> & { id: string };

/**
 * The scope columns of a resource per the contract and its declaration in resources/*.ts: `scope: false` is
 * unscoped; otherwise each of `department`, `owner`, `self` the declaration names, the rest defaulted: the
 * department column is a `department_id` reference to departments when there is one (`id` for departments,
 * by their own declaration), the owner column `created_by`, no self column.
 */
export function scopeColumnsOf(r: Resource): ScopeColumns | null {
  const declared = (r.options as { scope?: unknown }).scope;
  if (declared === false) return null;
  const d = (declared && typeof declared === 'object' ? declared : {}) as {
    department?: string | null;
    owner?: string | null;
    self?: string | null;
  };
  const hasDepartmentId = r.fields.some(
    (f) =>
      f.name === 'department_id' &&
      f.meta.relation?.kind === 'belongsTo' &&
      f.meta.relation.resource === 'departments',
  );
  return {
    department: d.department !== undefined ? d.department : hasDepartmentId ? 'department_id' : null,
    owner: d.owner !== undefined ? d.owner : 'created_by',
    self: d.self ?? null,
  };
}

export function oracleResource(r: Resource): OracleResource {
  return { name: r.name, permission: r.permission, scope: scopeColumnsOf(r), derived: derivedOf(r) };
}

/** The inputs of each computed field of a declaration (OracleResource `derived`), read off its code. */
function derivedOf(r: Resource): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of r.fields) {
    const computed = f.meta.computed;
    if (!computed) continue;
    const read: string[] = [];
    if (computed.sql) computed.sql((name) => (read.push(name), 'NULL'));
    else
      computed.value?.(
        new Proxy({}, { get: (_, key) => (typeof key === 'string' && read.push(key), undefined) }),
      );
    out[f.name] = read;
  }
  return out;
}

/** The caller's enabled roles that grant the resource (hold its read permission). */
export function grantingRoles(world: OracleWorld, caller: OracleCaller, r: OracleResource): OracleRole[] {
  return rolesOf(world, caller).filter((role) => role.permissions.includes(r.permission));
}

/** May the caller read the resource at all (admin, or a role granting it)? */
export function mayRead(world: OracleWorld, caller: OracleCaller, r: OracleResource): boolean {
  return caller.isAdmin || grantingRoles(world, caller, r).length > 0;
}

/** May the caller use an action (`update`, `delete`, `export`, `import`, `create`): the union of its roles. */
export function mayDo(world: OracleWorld, caller: OracleCaller, r: OracleResource, action: string): boolean {
  return (
    caller.isAdmin ||
    rolesOf(world, caller).some((role) => role.permissions.includes(`${r.permission}.${action}`))
  );
}

/** Does the caller see this record (the union over its roles that grant the resource)? */
export function sees(
  world: OracleWorld,
  caller: OracleCaller,
  r: OracleResource,
  record: OracleRecord,
): boolean {
  if (caller.isAdmin) return true;
  const roles = grantingRoles(world, caller, r);
  if (!roles.length) return false;
  const scope = r.scope;
  if (!scope) return true;
  return roles.some((role) => roleSees(world, caller, role, scope, record));
}

/** The ids of `records` the caller sees, in their order. */
export function visibleIds(
  world: OracleWorld,
  caller: OracleCaller,
  r: OracleResource,
  records: readonly OracleRecord[],
): string[] {
  return records.filter((x) => sees(world, caller, r, x)).map((x) => x.id);
}

/**
 * The caller's access to a field: the most permissive over its roles that grant the resource (a role that
 * does not name the field makes it writable); admins write everything. `hidden` too when nothing grants it.
 */
export function fieldLevel(
  world: OracleWorld,
  caller: OracleCaller,
  r: OracleResource,
  field: string,
): FieldLevel {
  if (caller.isAdmin) return 'write';
  let best: FieldLevel = 'hidden';
  for (const role of grantingRoles(world, caller, r)) {
    const level: FieldLevel = role.fieldAccess[`${r.name}.${field}`] ?? 'write';
    if (RANK[level] > RANK[best]) best = level;
  }
  const inputs = r.derived?.[field] ?? [];
  if (inputs.some((input) => fieldLevel(world, caller, r, input) === 'hidden')) return 'hidden';
  return best;
}

/**
 * What `GET v1/user/info` answers as `field_access` for the resources given: the restricted fields only
 * (`{}` for an admin).
 */
export function effectiveFieldAccess(
  world: OracleWorld,
  caller: OracleCaller,
  resources: readonly { r: OracleResource; fields: readonly string[] }[],
): Record<string, 'hidden' | 'read'> {
  const out: Record<string, 'hidden' | 'read'> = {};
  if (caller.isAdmin) return out;
  for (const { r, fields } of resources) {
    if (!mayRead(world, caller, r)) continue;
    for (const f of fields) {
      const level = fieldLevel(world, caller, r, f);
      if (level !== 'write') out[`${r.name}.${f}`] = level;
    }
  }
  return out;
}

/**
 * The product's no-self-escalation rule of the role editor (issue 30 leaves it as it was): a caller who is not
 * an administrator writes only a role it is not a member of and whose every permission name it holds itself
 * (through its enabled roles); any other write is a 403 whatever the role's scope or field access say.
 */
export function mayManageRole(
  world: OracleWorld,
  caller: OracleCaller,
  role: {
    id: string;
    permissions: readonly string[];
    dataScope?: DataScope;
    departmentIds?: readonly string[];
    fieldAccess?: Readonly<Record<string, 'hidden' | 'read'>>;
  },
  resources: readonly { r: OracleResource; fields: readonly string[] }[] = [],
): boolean {
  if (caller.isAdmin) return true;
  if (caller.roleIds.includes(role.id)) return false;
  const mine = rolesOf(world, caller);
  const held = new Set(mine.flatMap((x) => x.permissions));
  if (!role.permissions.every((name) => held.has(name))) return false;
  // No wider data scope than the editor's own (issue 30): `all` allows anything.
  if (!mine.some((x) => x.dataScope === 'all')) {
    const below = mine.some((x) => x.dataScope === 'department_and_below');
    const atHome = below || mine.some((x) => x.dataScope === 'department');
    const scope = role.dataScope ?? 'all';
    if (scope === 'all') return false;
    if (scope === 'department_and_below' && !below) return false;
    if (scope === 'department' && !atHome) return false;
    if (scope === 'custom') {
      const reach = new Set(mine.flatMap((x) => (x.dataScope === 'custom' ? x.departmentIds : [])));
      const home = caller.departmentId;
      if (home && atHome) reach.add(home);
      if (home && below) for (const id of subtree(world, home)) reach.add(id);
      if ((role.departmentIds ?? []).some((id) => !reach.has(id))) return false;
    }
  }
  // On every page the role grants, what the editor may not see (or change) stays hidden (or read-only).
  const access = role.fieldAccess ?? {};
  for (const { r, fields } of resources) {
    if (!role.permissions.includes(r.permission)) continue;
    for (const f of fields) {
      const level = fieldLevel(world, caller, r, f);
      const theirs = access[`${r.name}.${f}`];
      if (level !== 'write' && theirs !== 'hidden' && theirs !== level) return false;
    }
  }
  return true;
}

/** Department ids of `root` and everything below it. */
export function subtree(world: OracleWorld, root: string): Set<string> {
  const out = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const d of world.departments)
      if (out.has(d.parentId) && !out.has(d.id)) {
        out.add(d.id);
        grew = true;
      }
  }
  return out;
}

// ------------------------------------------------------------------------------------------- helpers

const RANK: Record<FieldLevel, number> = { hidden: 0, read: 1, write: 2 };

function rolesOf(world: OracleWorld, caller: OracleCaller): OracleRole[] {
  return world.roles.filter((role) => role.enabled && caller.roleIds.includes(role.id));
}

function roleSees(
  world: OracleWorld,
  caller: OracleCaller,
  role: OracleRole,
  scope: ScopeColumns,
  record: OracleRecord,
): boolean {
  const department = scope.department ? idOrNull(record[scope.department]) : null;
  switch (role.dataScope) {
    case 'all':
      return true;
    case 'department':
      return department !== null && caller.departmentId !== null && department === caller.departmentId;
    case 'department_and_below':
      return (
        department !== null &&
        caller.departmentId !== null &&
        subtree(world, caller.departmentId).has(department)
      );
    case 'custom':
      return department !== null && role.departmentIds.includes(department);
    case 'self': {
      const owner = scope.owner ? idOrNull(record[scope.owner]) : null;
      if (owner !== null && owner === caller.userId) return true;
      const self = scope.self ? idOrNull(record[scope.self]) : null;
      return self !== null && self === caller.userId;
    }
  }
}

function idOrNull(value: unknown): string | null {
  if (value === null || value === undefined || value === '' || value === '0') return null;
  return String(value);
}
