import { AppError } from '../core/errors.ts';
import { paged } from '../core/paged.ts';
import type { OperationContext } from './context.ts';
import { hiddenFields } from './field-access.ts';
import { hookContextOf } from './hook-runtime.ts';
import { hooksOf } from './hooks.ts';
import { readPage } from './list/paging.ts';
import { parseListQuery, type RawQuery } from './list/query.ts';
import { loadRecords } from './list/records.ts';
import type { ListResult } from './operations.ts';
import { rowScope, scopeList, type RowScope } from './scope.ts';
import { ident } from './schema/fields.ts';
import { isIdString } from '../../resources/define.ts';
import { writeAudit, type Actor } from './write/audit.ts';
import { InUseError, mapDbError } from './write/db-errors.ts';
import { publishChanges } from './write/record-events.ts';
import { deleteRow, selectRow, trashedAt } from './write/record-sql.ts';
import { fetchRecord, withUsersCounted } from './write/record-writes.ts';
import { assertReferencesLive, restoreWithChildren } from './write/trash-writes.ts';

/**
 * The trash of a soft-delete resource (resources/define.ts `softDelete`; contract "Nothing lost"): its list,
 * a restore and a purge. Each needs the resource's delete permission and works within the caller's data
 * scope (a record out of scope is a 404, as everywhere). A trashed record answers `deleted_at`.
 */

/** `GET <path>/trash`: the trashed records, with the list query of the live list. */
export async function listTrash(ctx: OperationContext, { query }: { query: RawQuery }): Promise<ListResult> {
  const actor = await ctx.authorize('delete');
  const { db, resource } = ctx;
  const q = parseListQuery(resource, query, {
    filters: hooksOf(ctx.hooks, resource).filters,
    hidden: hiddenFields(actor.principal, resource),
  });
  const scope = await rowScope(db, resource, actor.principal);
  const page = await readPage(db, resource, scopeList(resource, q, scope, 'trash'));
  const data = await loadRecords(db, { ...ctx, viewer: actor.principal }, page.rows, q.includes);
  if (data.length) {
    const { rows } = await db.query<{ id: string; at: Date | string }>(
      `SELECT "id"::text AS id, "deleted_at" AS at FROM ${ident(resource.table)} WHERE "id" = ANY($1::bigint[])`,
      [data.map((r) => r.id)],
    );
    const at = new Map(rows.map((r) => [r.id, new Date(r.at).toISOString()]));
    for (const record of data) record.deleted_at = at.get(record.id) ?? null;
  }
  return paged(data, {
    total: page.total,
    page: page.currentPage,
    size: q.size,
    isEstimate: page.isEstimate,
    isCapped: page.isCapped,
    nextCursor: page.nextCursor,
  });
}

/**
 * `POST <path>/trash/<id>/restore`: the record back as it was (every field, its links, the inline children
 * that went with it); audited as `<resource>.restore`. 409 while it refers to a record still in the trash.
 */
export async function restoreTrashed(ctx: OperationContext, { id }: { id: string }) {
  const actor = await ctx.authorize('delete');
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  await ctx.db.transaction(async (tx) => {
    const row = await trashedRow(ctx, tx, id, scope);
    const at = (await trashedAt(tx, ctx.resource, id))!;
    await assertReferencesLive(ctx, tx, row);
    await restoreWithChildren(ctx, tx, { id, at });
    await assertHooksAllowRestore(ctx, tx, { id, actor, scope });
    await writeAudit(tx, { resource: ctx.resource, action: 'restore', subjectId: id, changes: {}, actor });
  });
  await publishChanges(ctx.db, [{ resource: ctx.resource, id, action: 'create' }], actor);
  return fetchRecord(ctx, { db: ctx.db, id, scope, viewer: actor.principal });
}

/**
 * A restore is a write: the resource's `beforeWrite` hook judges the record back from the trash as an update
 * of it that changes nothing (`data` empty, `before` the record as restored), so a rule that refuses the
 * caller any write of it (the people module: an administrator's staff record, a role granting names the
 * caller lacks) refuses the restore too. Call it inside the restore's transaction, after the rows are back.
 */
export async function assertHooksAllowRestore(
  ctx: OperationContext,
  tx: Parameters<typeof selectRow>[0],
  target: { id: string; actor: Actor; scope: RowScope },
): Promise<void> {
  await judgeLiveRecord(ctx, tx, target, 'update');
}

/** Runs the resource's `beforeWrite` on the live record `id` as an `action` that changes nothing. */
async function judgeLiveRecord(
  ctx: OperationContext,
  tx: Parameters<typeof selectRow>[0],
  { id, actor, scope }: { id: string; actor: Actor; scope: RowScope },
  action: 'update' | 'delete',
): Promise<void> {
  const { beforeWrite } = hooksOf(ctx.hooks, ctx.resource);
  if (!beforeWrite) return;
  const before = await fetchRecord(ctx, { db: tx, id, forUpdate: true, scope, viewer: actor.principal });
  await beforeWrite({ action, tx, id, before, data: {}, actor, ...hookContextOf(tx, actor) });
}

/**
 * `DELETE <path>/trash/<id>`: the row deleted for good (its inline children by their foreign key); a 409
 * naming who still uses it when a foreign key refuses (a trashed record of another resource referring to it).
 * Audited as `<resource>.purge`.
 */
export async function purgeTrashed(ctx: OperationContext, { id }: { id: string }): Promise<null> {
  const actor = await ctx.authorize('delete');
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  await withUsersCounted(ctx, () =>
    ctx.db.transaction(async (tx) => {
      await trashedRow(ctx, tx, id, scope);
      await assertHooksAllowPurge(ctx, tx, { id, actor, scope });
      try {
        await deleteRow(tx, ctx.resource, id);
      } catch (error) {
        try {
          mapDbError(ctx.resource, error, ctx.label);
        } catch (mapped) {
          if (mapped instanceof InUseError) mapped.recordId = id;
          throw mapped;
        }
      }
      await writeAudit(tx, { resource: ctx.resource, action: 'purge', subjectId: id, changes: {}, actor });
    }),
  );
  return null;
}

/**
 * A purge needs what a delete of the live record needs: inside the purge's transaction the record comes back
 * from the trash for a moment, and the resource's `beforeWrite` hook judges its delete as it would any delete
 * (the people module: a staff manager may not delete an administrator's staff record, so may not purge it
 * either; a rule that looks only at live records sees this one). A refusal rolls the restore back with it.
 */
async function assertHooksAllowPurge(
  ctx: OperationContext,
  tx: Parameters<typeof selectRow>[0],
  target: { id: string; actor: Actor; scope: RowScope },
): Promise<void> {
  if (!hooksOf(ctx.hooks, ctx.resource).beforeWrite) return;
  const at = (await trashedAt(tx, ctx.resource, target.id))!;
  await restoreWithChildren(ctx, tx, { id: target.id, at });
  await judgeLiveRecord(ctx, tx, target, 'delete');
}

/** The trashed row of this id in the caller's scope, locked; 404 otherwise (a live one included). */
async function trashedRow(
  ctx: OperationContext,
  tx: Parameters<typeof selectRow>[0],
  id: string,
  scope: Awaited<ReturnType<typeof rowScope>>,
): Promise<Record<string, unknown>> {
  if (!isIdString(id)) throw AppError.notFound();
  const row = await selectRow(tx, { resource: ctx.resource, id, scope, forUpdate: true, trash: 'trash' });
  if (!row) throw AppError.notFound();
  return row;
}
