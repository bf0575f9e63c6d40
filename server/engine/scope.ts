import { departments as departmentsResource } from '../../resources/departments.ts';
import { isSoftDelete, type Resource, type ScopeColumns } from '../../resources/define.ts';
import type { Principal } from '../core/principal.ts';
import type { Queryable } from '../db/index.ts';
import { permissionFor } from './access.ts';
import type { ListQuery } from './list/query.ts';
import { fieldsOf, ident } from './schema/fields.ts';
import { treeIds } from './tree.ts';

/**
 * Data scopes (contract amendment "Who sees which rows and fields"): which rows of a resource a caller may
 * see, decided here once and applied by every path through the same few calls (list and export: `scopeList`;
 * reads, writes, bulk calls, import and includes: `scopeSql` inside the storage statements they share).
 *
 * A caller's rows are the union over its enabled roles that grant the resource's read permission: a role
 * with `all` lifts the restriction; `department` adds the caller's department (from its staff record),
 * `department_and_below` that department and its subtree, `custom` the departments the role lists (each
 * exactly), `self` the records the caller created (and the records that *are* the caller: staff's own
 * record). `is_admin` sees everything, as does an unscoped resource (`scope: false`) and the system (no
 * principal). Example: `const scope = await rowScope(db, staff, principal)` then
 * `scopeSql(staff, scope, bind)` -> `("department_id" = ANY($3::bigint[]) OR "created_by" = $4 OR ...)`.
 */
export type RowScope =
  | { all: true }
  | {
      all: false;
      /** The caller's user id (owner and self columns). */
      userId: string;
      /** Departments whose records the caller sees (subtrees already resolved). */
      departmentIds: readonly string[];
      /** A `self` role: the caller's own records. */
      own: boolean;
    };

export const UNRESTRICTED: RowScope = { all: true };

/** A resource's scope columns, defaults applied (ResourceOptions.scope); null when it is unscoped. */
export function scopeColumnsOf(resource: Resource): Required<ScopeColumns> | null {
  let found = columnsCache.get(resource);
  if (found === undefined) {
    const declared = resource.options.scope;
    if (declared === false) found = null;
    else {
      const hasDepartment = fieldsOf(resource).some(
        (f) =>
          f.name === 'department_id' && f.kind === 'reference' && f.meta.relation?.resource === 'departments',
      );
      found = {
        department:
          declared?.department !== undefined ? declared.department : hasDepartment ? 'department_id' : null,
        owner: declared?.owner !== undefined ? declared.owner : 'created_by',
        self: declared?.self ?? null,
      };
    }
    columnsCache.set(resource, found);
  }
  return found;
}
const columnsCache = new WeakMap<Resource, Required<ScopeColumns> | null>();

/**
 * The caller's row scope on a resource. Resolved once per principal (a request's, or a job's freshly
 * loaded one) and resource: a `department_and_below` role costs one recursive query over departments.
 */
export function rowScope(
  db: Queryable,
  resource: Resource,
  principal: Principal | undefined,
): Promise<RowScope> {
  if (!principal) return Promise.resolve(UNRESTRICTED);
  let perResource = memo.get(principal);
  if (!perResource) memo.set(principal, (perResource = new Map()));
  let scope = perResource.get(resource.name);
  if (!scope) {
    scope = resolve(db, resource, principal);
    perResource.set(resource.name, scope);
  }
  return scope;
}
const memo = new WeakMap<Principal, Map<string, Promise<RowScope>>>();

async function resolve(db: Queryable, resource: Resource, principal: Principal): Promise<RowScope> {
  const columns = scopeColumnsOf(resource);
  if (!columns || principal.staff?.isAdmin) return UNRESTRICTED;
  const permission = permissionFor(resource, 'read');
  const roles = principal.roles ?? [];
  let granting = roles.filter((r) => r.permissions.has(permission));
  // A caller who may write but not read the resource (a create-only role): the roles granting its actions.
  if (granting.length === 0)
    granting = roles.filter((r) => [...r.permissions].some((p) => p.startsWith(`${permission}.`)));
  if (granting.some((r) => r.dataScope === 'all')) return UNRESTRICTED;
  const home = principal.staff?.departmentId ?? null;
  const exact = new Set<string>();
  const below: string[] = [];
  let own = false;
  for (const role of granting) {
    if (role.dataScope === 'self') own = true;
    else if (role.dataScope === 'custom') for (const id of role.departmentIds) exact.add(id);
    else if (home && role.dataScope === 'department') exact.add(home);
    else if (home && role.dataScope === 'department_and_below') below.push(home);
  }
  if (columns.department && below.length)
    for (const id of await treeIds(db, departmentsResource, { ids: below, direction: 'down' })) exact.add(id);
  return { all: false, userId: principal.userId, departmentIds: columns.department ? [...exact] : [], own };
}

/**
 * The scope as a predicate on the resource's own columns (`prefix` qualifies them, e.g. `t.`), its values
 * bound through `bind`, ANDed with the trash's (`rows`: a soft-delete resource's live rows by default, or its
 * trashed ones, or both: `liveSql`); null when nothing restricts, `FALSE` when the caller sees none of its
 * rows. It uses the indexes on the department column (a reference's index), on `created_by` (migration 0114)
 * and the partial indexes over the live rows (migration 0125).
 */
export function scopeSql(
  resource: Resource,
  scope: RowScope,
  bind: (value: unknown) => string,
  prefix = '',
  rows: TrashRows = 'live',
): string | null {
  const trash = liveSql(resource, prefix, rows);
  const own = ownScopeSql(resource, scope, bind, prefix);
  return trash && own ? `${trash} AND ${own}` : (trash ?? own);
}

/** Which rows of a soft-delete resource a statement reads: the live ones, the trashed ones, or all. */
export type TrashRows = 'live' | 'trash' | 'all';

/**
 * The trash's predicate (resources/define.ts `softDelete`): `"deleted_at" IS NULL` for the live rows,
 * `IS NOT NULL` for the trash; null for `all` or a resource without a trash. Every read that is not the
 * trash's own goes through it (scopeSql), so a trashed record leaves lists, reads, includes, exports,
 * reference options, counts and search at once.
 */
export function liveSql(resource: Resource, prefix = '', rows: TrashRows = 'live'): string | null {
  if (rows === 'all' || !isSoftDelete(resource)) return null;
  return `${prefix}"deleted_at" IS ${rows === 'live' ? 'NULL' : 'NOT NULL'}`;
}

function ownScopeSql(
  resource: Resource,
  scope: RowScope,
  bind: (value: unknown) => string,
  prefix: string,
): string | null {
  if (scope.all) return null;
  const columns = scopeColumnsOf(resource)!;
  const parts: string[] = [];
  if (columns.department && scope.departmentIds.length)
    parts.push(`${prefix}${ident(columns.department)} = ANY(${bind([...scope.departmentIds])}::bigint[])`);
  if (scope.own) {
    const me = bind(scope.userId);
    if (columns.owner) parts.push(`${prefix}${ident(columns.owner)} = ${me}`);
    if (columns.self) parts.push(`${prefix}${ident(columns.self)} = ${me}`);
  }
  return parts.length ? `(${parts.join(' OR ')})` : 'FALSE';
}

/**
 * A parsed list query restricted to the scope and to the live rows (or the trash's, `rows`): its WHERE gains
 * the predicate (ANDed around the query's own, which may be an OR), so the rows, the totals, the cursors'
 * fingerprints and the remembered page positions (both keyed by the WHERE and its values) all follow it. A
 * restricted list counts its rows (`isScoped`: an estimate, of the whole table or of a filter, would tell
 * about rows the caller cannot see); the live rows alone keep the estimate (the trash is a small part of a
 * table, and the live predicate is part of what a filter's estimate estimates).
 */
export function scopeList(
  resource: Resource,
  q: ListQuery,
  scope: RowScope,
  rows: TrashRows = 'live',
): ListQuery {
  const params = [...q.params];
  const restricted = ownScopeSql(resource, scope, (value) => `$${params.push(value)}`, '');
  const trash = liveSql(resource, '', rows);
  const predicate = [trash, restricted].filter(Boolean).join(' AND ');
  if (!predicate) return q;
  const own = q.where.replace(/^WHERE /, '');
  const where = own ? `WHERE (${own}) AND ${predicate}` : `WHERE ${predicate}`;
  const hasFilter = q.hasFilter || restricted !== null || rows === 'trash';
  return { ...q, where, params, hasFilter, isScoped: q.isScoped || restricted !== null };
}

/**
 * Whether a record (its values as written: the department column, `created_by`, the self column) lies in
 * the scope: the check a create or update runs on the record it would leave (422 naming the department
 * field otherwise, record-writes.ts).
 */
export function isInScope(resource: Resource, scope: RowScope, record: Record<string, unknown>): boolean {
  if (scope.all) return true;
  const columns = scopeColumnsOf(resource)!;
  const value = (column: string | null) => (column && record[column] != null ? String(record[column]) : null);
  const department = value(columns.department);
  if (department !== null && scope.departmentIds.includes(department)) return true;
  return scope.own && (value(columns.owner) === scope.userId || value(columns.self) === scope.userId);
}

/** Which of these ids name a row in the scope (all of them that exist when unrestricted). */
export async function idsInScope(
  db: Queryable,
  resource: Resource,
  scope: RowScope,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const params: unknown[] = [[...ids]];
  const predicate = scopeSql(resource, scope, (value) => `$${params.push(value)}`);
  const { rows } = await db.query<{ id: string }>(
    `SELECT "id"::text AS id FROM ${ident(resource.table)} WHERE "id" = ANY($1::bigint[])${predicate ? ` AND ${predicate}` : ''}`,
    params,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Whether the caller's data scope holds a record, from the record's scope columns alone (its department with
 * its ancestors, and its owners: what a live event carries, `audienceOf`): the same union over the roles
 * granting `permission` as `rowScope`, answered without a query, for every subscriber of every event.
 */
export function seesRecord(
  principal: Principal,
  permission: string,
  record: { departments: readonly string[]; owners: readonly string[] },
): boolean {
  if (principal.staff?.isAdmin) return true;
  const home = principal.staff?.departmentId ?? null;
  const [department] = record.departments;
  return (principal.roles ?? [])
    .filter((r) => r.permissions.has(permission))
    .some((role) => {
      if (role.dataScope === 'all') return true;
      if (role.dataScope === 'self') return record.owners.includes(principal.userId);
      if (role.dataScope === 'custom')
        return department !== undefined && role.departmentIds.includes(department);
      if (role.dataScope === 'department') return home !== null && department === home;
      return home !== null && record.departments.includes(home);
    });
}

/** The scope columns of some records, as a live event carries them (hub.ts `RecordAudience`). */
export interface Audience {
  departments: string[];
  owners: string[];
}

/**
 * The audiences of these records (by id) of a scoped resource, or undefined for an unscoped one: their scope
 * columns from `known` rows (a deleted record's, read before the delete) or read now, and each department's
 * ancestors in one recursive query.
 */
export async function audienceOf(
  db: Queryable,
  resource: Resource,
  ids: readonly string[],
  known: ReadonlyMap<string, Record<string, unknown>> = new Map(),
): Promise<Record<string, Audience> | undefined> {
  const columns = scopeColumnsOf(resource);
  if (!columns) return undefined;
  const rows = new Map(known);
  const missing = ids.filter((id) => !rows.has(id));
  if (missing.length) {
    const wanted = [columns.department, columns.owner, columns.self].filter((c): c is string => Boolean(c));
    const { rows: found } = await db.query<Record<string, unknown>>(
      `SELECT "id"::text AS "id"${wanted.map((c) => `, ${ident(c)}::text AS ${ident(c)}`).join('')}
         FROM ${ident(resource.table)} WHERE "id" = ANY($1::bigint[])`,
      [missing],
    );
    for (const row of found) rows.set(String(row.id), row);
  }
  const text = (row: Record<string, unknown> | undefined, column: string | null) =>
    column && row?.[column] != null ? String(row[column]) : null;
  const departments = [
    ...new Set(
      ids.map((id) => text(rows.get(id), columns.department)).filter((d): d is string => d !== null),
    ),
  ];
  const paths = new Map<string, string[]>();
  if (departments.length) {
    const { rows: steps } = await db.query<{ start: string; id: string; depth: number }>(
      `WITH RECURSIVE up(start, id, parent, depth) AS (
         SELECT id, id, parent_id, 0 FROM ${ident(departmentsResource.table)} WHERE id = ANY($1::bigint[])
         UNION ALL SELECT up.start, d.id, d.parent_id, up.depth + 1
           FROM ${ident(departmentsResource.table)} d JOIN up ON d.id = up.parent WHERE up.depth < 64)
       SELECT start::text AS start, id::text AS id, depth FROM up ORDER BY start, depth`,
      [departments],
    );
    for (const step of steps) paths.set(step.start, [...(paths.get(step.start) ?? []), step.id]);
  }
  const out: Record<string, Audience> = {};
  for (const id of ids) {
    const row = rows.get(id);
    const department = text(row, columns.department);
    const owners = [text(row, columns.owner), text(row, columns.self)].filter((o): o is string => o !== null);
    out[id] = { departments: department ? (paths.get(department) ?? [department]) : [], owners };
  }
  return out;
}
