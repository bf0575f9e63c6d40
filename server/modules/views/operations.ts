import type { Resource } from '../../../resources/define.ts';
import { fieldsOf } from '../../../resources/fields.ts';
import type { Actor } from '../../core/activity.ts';
import { AppError } from '../../core/errors.ts';
import { can, type Principal } from '../../core/principal.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { permissionFor } from '../../engine/access.ts';
import { writeActorActivity } from '../../engine/activity-log.ts';
import { hiddenFields } from '../../engine/field-access.ts';
import { hooksOf, type ResourceHooksTable } from '../../engine/hooks.ts';
import { parseListQuery } from '../../engine/list/query.ts';
import { listContext, NO_CONTEXT } from '../../engine/list/related.ts';
import { servedResources } from '../../engine/served.ts';
import type { SavedView, SavedViewCreate, SavedViewUpdate } from './schemas.ts';
import { redactQuery } from './redact.ts';
import { insertView, patchView, removeView, selectViews, setChoices, type ViewRow } from './store.ts';

/**
 * Saved views (issue 32, item 1): a list's query, columns and density under a name, private, shared with
 * roles or with everyone. Each operation runs access -> validate -> write -> audit. A view of a resource the
 * caller cannot read is never listed; a stored query is validated by the list's own parser (the searchable
 * and sortable allow-list, the caller's hidden fields) on every save.
 */
export interface ViewsContext {
  db: Db;
  hooks: ResourceHooksTable;
}

/** The views the caller may see: its own and those shared with it, of resources it may read. */
export async function listViews(
  ctx: ViewsContext,
  { principal, resource }: { principal: Principal; resource?: string | undefined },
): Promise<SavedView[]> {
  const rows = await viewRows(ctx, { principal, resource });
  return Promise.all(rows.map((row) => toWire(ctx, row, principal)));
}

/** The same views as stored (their whole query: what a pinned view's count runs, counts.ts). */
export async function viewRows(
  { db }: ViewsContext,
  { principal, resource }: { principal: Principal; resource?: string | undefined },
): Promise<ViewRow[]> {
  const rows = await selectViews(db, { userId: principal.userId, roleIds: roleIdsOf(principal), resource });
  return rows.filter((row) => readable(principal, row.resource));
}

/** One view the caller sees (404 otherwise). */
export async function findView(
  db: Queryable,
  { principal, id }: { principal: Principal; id: string },
): Promise<ViewRow> {
  const [row] = await selectViews(db, { userId: principal.userId, roleIds: roleIdsOf(principal), id });
  if (row && readable(principal, row.resource)) return row;
  // An administrator may change a view nobody shared with it (contract: "only the owner or an admin").
  if (principal.staff?.isAdmin) {
    const [any] = await selectViews(db, { userId: principal.userId, roleIds: [], id, anyOwner: true });
    if (any) return any;
  }
  throw AppError.notFound();
}

export async function createView(
  ctx: ViewsContext,
  { actor, principal, body }: { actor: Actor; principal: Principal; body: SavedViewCreate },
): Promise<SavedView> {
  const resource = resourceFor(principal, body.resource);
  await checkView(ctx, principal, resource, body);
  return ctx.db.transaction(async (tx) => {
    const id = await insertView(tx, { ownerId: principal.userId, body });
    if (body.pinned || body.is_default)
      await setChoices(tx, {
        userId: principal.userId,
        viewId: id,
        resource: resource.name,
        pinned: body.pinned,
        isDefault: body.is_default,
      });
    await audit(tx, actor, 'views.create', id, {
      name: body.name,
      resource: resource.name,
      shared: body.shared,
    });
    return toWire(ctx, await findView(tx, { principal, id }), principal);
  });
}

/**
 * Changes a view: its name, query, columns, density and sharing only by its owner or an administrator (403
 * for anyone else who sees it); `pinned` and `is_default` are the caller's own choices on any view it sees.
 */
export async function updateView(
  ctx: ViewsContext,
  { actor, principal, id, body }: { actor: Actor; principal: Principal; id: string; body: SavedViewUpdate },
): Promise<SavedView> {
  return ctx.db.transaction(async (tx) => {
    const row = await findView(tx, { principal, id });
    const { pinned, is_default: isDefault, ...shape } = body;
    const changes = Object.fromEntries(Object.entries(shape).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length) {
      if (!mayEdit(principal, row)) throw AppError.forbidden();
      const resource = resourceFor(principal, row.resource);
      const shared = shape.shared ?? row.shared;
      const next = {
        query: shape.query ?? row.query,
        columns: shape.columns ?? row.columns,
        shared,
        // A view no longer shared with roles forgets them.
        role_ids: shared === 'roles' ? (shape.role_ids ?? row.role_ids) : [],
      };
      await checkView(ctx, principal, resource, next);
      await patchView(tx, { id, changes: { ...shape, role_ids: next.role_ids } });
      await audit(tx, actor, 'views.update', id, changes);
    }
    if (pinned !== undefined || isDefault !== undefined)
      await setChoices(tx, {
        userId: principal.userId,
        viewId: id,
        resource: row.resource,
        pinned,
        isDefault,
      });
    return toWire(ctx, await findView(tx, { principal, id }), principal);
  });
}

/** Deletes a view (its owner or an administrator; 403 for anyone else who sees it, 404 for the rest). */
export async function deleteView(
  ctx: ViewsContext,
  { actor, principal, id }: { actor: Actor; principal: Principal; id: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await findView(tx, { principal, id });
    if (!mayEdit(principal, row)) throw AppError.forbidden();
    await removeView(tx, id);
    await audit(tx, actor, 'views.delete', id, { name: row.name, resource: row.resource });
  });
}

/** The served resource a view names, when the caller may read it (422 naming `resource` otherwise). */
export function resourceFor(principal: Principal, name: string): Resource {
  const resource = servedResources().find((r) => r.name === name);
  if (!resource || !can(principal, permissionFor(resource, 'read')))
    throw AppError.validation({ resource: ['validation.invalid'] });
  return resource;
}

export function readable(principal: Principal, name: string): boolean {
  const resource = servedResources().find((r) => r.name === name);
  return Boolean(resource && can(principal, permissionFor(resource, 'read')));
}

function roleIdsOf(principal: Principal): string[] {
  return principal.roles.map((r) => r.id).filter((id) => /^\d+$/.test(id));
}

function mayEdit(principal: Principal, row: ViewRow): boolean {
  return row.owner_id === principal.userId || principal.staff?.isAdmin === true;
}

/** The query through the list's own parser, the columns among the fields the caller sees, roles when shared with roles. */
async function checkView(
  { db, hooks }: ViewsContext,
  principal: Principal,
  resource: Resource,
  view: Pick<SavedViewCreate, 'query' | 'columns' | 'shared' | 'role_ids'>,
): Promise<void> {
  const hidden = hiddenFields(principal, resource);
  // With the caller's related fields (`department.name`), as the list itself parses it.
  const context = await listContext(db, { resource, registry: servedResources(), principal });
  parseListQuery(resource, view.query, { filters: hooksOf(hooks, resource).filters, hidden, context });
  const known = new Set(fieldsOf(resource).map((f) => f.name));
  if (view.columns.some((c) => !known.has(c) || hidden.has(c)))
    throw AppError.validation({ columns: ['validation.invalid'] });
  if (view.shared === 'roles' && view.role_ids.length === 0)
    throw AppError.validation({ role_ids: ['validation.required'] });
}

async function toWire(ctx: ViewsContext, row: ViewRow, principal: Principal): Promise<SavedView> {
  const { query, columns } = mayEdit(principal, row) ? row : await readersPart(ctx, row, principal);
  return {
    id: row.id,
    resource: row.resource,
    name: row.name,
    query,
    columns,
    density: row.density,
    shared: row.shared,
    role_ids: row.shared === 'roles' ? row.role_ids : [],
    pinned: row.pinned,
    is_default: row.is_default,
    owner_id: row.owner_id,
    can_edit: mayEdit(principal, row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * A view as a reader who is not its owner may see it, pair by pair: each `search` pair, `searchFields` entry
 * and `orderBy` field stays when its field is one the reader may search (or sort) by, else it is left out,
 * so the owner's typed values of a field the reader may not see never reach it (review of issue 32) while
 * the rest of the view still works. A bare search term is searched in the `searchFields` fields: it stays
 * only when all of them stay. `sortedBy` goes with the last sort field; `searchJoin`, `q` (searched over the
 * reader's visible fields only) and the density stay; columns the reader may not see go. The stored view is
 * unchanged: its count for this reader stays the error value (counts.ts), since the list refuses the whole
 * query.
 */
async function readersPart(
  { db, hooks }: ViewsContext,
  row: ViewRow,
  principal: Principal,
): Promise<Pick<SavedView, 'query' | 'columns'>> {
  const resource = servedResources().find((r) => r.name === row.resource);
  if (!resource) return row;
  const hidden = hiddenFields(principal, resource);
  // A related field (`department.name`) is the target's: its access is in the list context.
  const isRelated = Object.values(row.query).some((v) => typeof v === 'string' && v.includes('.'));
  if (hidden.size === 0 && !isRelated) return row;
  const context = isRelated
    ? await listContext(db, { resource, registry: servedResources(), principal })
    : NO_CONTEXT;
  const filters = hooksOf(hooks, resource).filters;
  // The list's own parser decides what the reader may search and sort by (hidden, related, allow-list).
  const parses = (part: SavedView['query']) => {
    try {
      parseListQuery(resource, part, { filters, hidden, context });
      return true;
    } catch {
      return false;
    }
  };
  return {
    query: defined(
      redactQuery(row.query, {
        canSearch: (field) => parses({ searchFields: `${field}:like` }),
        canSort: (field) => parses({ orderBy: field }),
      }),
    ),
    columns: row.columns.filter((c) => !hidden.has(c)),
  };
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function audit(db: Queryable, actor: Actor, action: string, id: string, changes: Record<string, unknown>) {
  return writeActorActivity(db, actor, { action, subjectType: 'saved_views', subjectId: id, changes });
}
