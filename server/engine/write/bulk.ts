import { inlineLists } from '../../../resources/inline-lists.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import type { OperationContext } from '../context.ts';
import { splitInline } from './inline-writes.ts';
import { inlineWriter } from './inline-history.ts';
import { assertWritable } from '../field-access.ts';
import { validateBody } from '../operations.ts';
import { publishChanges, publishManyChanged, type RecordChange } from './record-events.ts';
import { lockRows } from './record-sql.ts';
import { rowScope } from '../scope.ts';
import { startOperation } from '../undo.ts';
import type { Actor } from './audit.ts';
import { patchRecord, removeRecord } from './record-writes.ts';

/** The most ids one bulk call takes (contract amendment "Bulk calls"). */
export const MAX_BULK_IDS = 1000;

/**
 * `PATCH <path>?ids=1,2,3`: the same partial update applied to every listed record in one transaction, each
 * through the single update's path (hooks, unique checks, inline lists, audit row), so all or nothing. A
 * missing id is a 404 whose `errors.ids` lists them; `data` is the ids, in the order given. Recorded as an
 * operation (undo.ts): `operationId` is what `POST v1/operations/<id>/undo` takes.
 */
export async function updateRecords(
  ctx: OperationContext,
  { ids: rawIds, body }: { ids: unknown; body: unknown },
): Promise<{ ids: string[]; operationId: string }> {
  const actor = await ctx.authorize('update');
  assertWritable(actor.principal, ctx.resource, ctx.registry, body);
  const ids = parseBulkIds(rawIds);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const given = validateBody(ctx, 'update', body);
  const written: RecordChange[] = [];
  const operationId = await ctx.db.transaction(async (tx) => {
    const locked = await lockAll(ctx, tx, ids, actor);
    const opActor = await startOperation(tx, { kind: 'update', resource: ctx.resource, actor });
    for (const id of locked) {
      // Hooks may adjust the data they are given, so every record gets its own copy.
      const { own, children } = splitInline(structuredClone(given), lists);
      // The parent's audit row keeps its children before and after (inline-history.ts): undo reverts them.
      const inline = inlineWriter(ctx, { tx, parentId: id, children, actor: opActor, written });
      await patchRecord(ctx, { tx, id, data: own, actor: opActor, inline });
    }
    return opActor.operationId;
  });
  await publishManyChanged(ctx.db, { resource: ctx.resource, action: 'update', ids, actor });
  await publishChanges(ctx.db, written, actor);
  return { ids, operationId };
}

/**
 * `DELETE <path>?ids=1,2,3`: every listed record deleted in one transaction through the single delete's path
 * (hooks, audit row, 409 when still in use), all or nothing; 404 naming the missing ids. `data` is the ids.
 * Recorded as an operation (undo.ts), like updateRecords.
 */
export async function deleteRecords(
  ctx: OperationContext,
  { ids: rawIds }: { ids: unknown },
): Promise<{ ids: string[]; operationId: string }> {
  const actor = await ctx.authorize('delete');
  const ids = parseBulkIds(rawIds);
  const before = new Map<string, Record<string, unknown>>();
  const operationId = await ctx.db.transaction(async (tx) => {
    const locked = await lockAll(ctx, tx, ids, actor);
    const opActor = await startOperation(tx, { kind: 'delete', resource: ctx.resource, actor });
    for (const id of locked) before.set(id, await removeRecord(ctx, { tx, id, actor: opActor }));
    return opActor.operationId;
  });
  await publishManyChanged(ctx.db, { resource: ctx.resource, action: 'delete', ids, actor, before });
  return { ids, operationId };
}

/**
 * `ids=1,2,3` (or repeated `ids`) -> distinct ids in the order given, digits without leading zeros (anything
 * else is kept as given and reported missing); 422 when there is none or more than MAX_BULK_IDS.
 */
export function parseBulkIds(raw: unknown): string[] {
  const text = Array.isArray(raw) ? raw.map(String).join(',') : raw == null ? '' : String(raw);
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((id) => (/^\d{1,30}$/.test(id) ? BigInt(id).toString() : id.slice(0, 100)));
  const distinct = [...new Set(ids)];
  if (distinct.length === 0)
    throw new AppError(422, 'engine.bulk.ids_required', {
      fields: { ids: ['engine.bulk.ids_required_short'] },
    });
  if (distinct.length > MAX_BULK_IDS)
    throw new AppError(422, 'engine.bulk.too_many', {
      params: { max: MAX_BULK_IDS },
      fields: { ids: ['engine.bulk.too_many_short'] },
    });
  return distinct;
}

/**
 * Locks the records of a bulk call in id order (two bulk calls over the same rows cannot deadlock) and
 * returns their ids in that order; a 404 whose `errors.ids` lists every id that is not there.
 */
export async function lockAll(
  ctx: OperationContext,
  tx: Queryable,
  ids: string[],
  actor: Actor,
): Promise<string[]> {
  // A record outside the caller's data scope is missing, like one that is not there (scope.ts).
  const scope = await rowScope(tx, ctx.resource, actor.principal);
  const found = await lockRows(tx, ctx.resource, ids, scope);
  const isFound = new Set(found);
  const missing = ids.filter((id) => !isFound.has(id));
  if (missing.length)
    throw new AppError(404, 'engine.bulk.not_found', {
      params: { count: missing.length },
      literal: { ids: missing },
    });
  return found;
}
