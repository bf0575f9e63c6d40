import { isIdString, isSoftDelete, type Resource } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { OperationContext } from './context.ts';
import { restrictedFields } from './field-access.ts';
import type { Lang } from './labels.ts';
import { validateBody } from './operations.ts';
import { fieldsOf } from './schema/fields.ts';
import { rowScope } from './scope.ts';
import { writeActorActivity } from './activity-log.ts';
import { writeAudit, type Actor } from './write/audit.ts';
import { publishChanges, type RecordChange } from './write/record-events.ts';
import { selectRow, trashedAt } from './write/record-sql.ts';
import { patchRecord, removeRecord, StaleVersion } from './write/record-writes.ts';
import { assertReferencesLive, restoreWithChildren } from './write/trash-writes.ts';
import { assertHooksAllowRestore } from './trash.ts';
import { inlineLists } from '../../resources/inline-lists.ts';
import { inlineSnapshot, inlineWriter, itemsToRestore } from './write/inline-history.ts';
import { splitInline } from './write/inline-writes.ts';

/**
 * Undo of a whole operation (issue 36 item 5; contract "Nothing lost"). A bulk PATCH/DELETE or an import
 * records itself in `operations` (startOperation) and writes with an actor carrying its id, so every audit
 * row it writes is linked to it in `operation_records` (activity-log.ts). Those rows hold what undo needs:
 * the old values of an update, the record a delete removed, the record an import created. A record written
 * since (a later audit row of it, or another version) is left alone and listed in `skipped`.
 */

/** What an operation was: a bulk update, a bulk delete, or an import (creates and updates). */
export type OperationKind = 'update' | 'delete' | 'import';

/** The permission each kind needed, and so the one its undo needs. */
export const NEEDED = { update: 'update', delete: 'delete', import: 'import' } as const;

/** An operation is undone within this many days of it. */
export const UNDO_DAYS = 7;

/** `data` of `POST v1/operations/<id>/undo`. */
export interface UndoResult {
  reverted: string[];
  skipped: { id: string; reason: string }[];
}

/**
 * Records the start of an operation inside its transaction; pass the answer as the writes' actor, whose
 * audit rows are then linked to it. Example: `const opActor = await startOperation(tx, { kind: 'update',
 * resource, actor })`.
 */
export async function startOperation(
  tx: Queryable,
  { kind, resource, actor }: { kind: OperationKind; resource: Resource; actor: Actor },
): Promise<Actor & { operationId: string }> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO "operations" ("kind", "resource", "actor_id") VALUES ($1, $2, $3) RETURNING "id"::text AS id`,
    [kind, resource.name, isIdString(actor.userId) ? actor.userId : null],
  );
  return { ...actor, operationId: rows[0]!.id };
}

interface OperationRow {
  id: string;
  kind: OperationKind;
  resource: string;
  actor_id: string | null;
  is_recent: boolean;
}

interface LinkedRow {
  subject_id: string;
  action: string;
  changes: Record<string, unknown> | null;
  is_written_since: boolean;
}

/**
 * `POST v1/operations/<id>/undo`: reverts every record the operation changed, created or deleted (an update
 * gets its old values back as a new version, a deleted record comes back from the trash, a created one goes
 * to the trash), in one transaction, each record under a savepoint: a record written since, or one the undo
 * cannot revert (a field the caller may not write, a rule of the resource), is left alone and listed with a
 * sentence saying why. Needs the permission the operation needed; someone else's operation is a 404 unless
 * the caller is an administrator; once (409 after), within UNDO_DAYS (409 after). Audited as
 * `operations.undo`; live events for the reverted records.
 */
export async function undoOperation(
  {
    db,
    resourceNamed,
    contextFor,
    lang,
  }: {
    db: Db;
    /** The served resource of that name (the operation's), if any. */
    resourceNamed: (name: string) => Resource | undefined;
    /** The operation context of a resource for this request (its permissions, labels, language). */
    contextFor: (resource: Resource) => OperationContext;
    lang: Lang;
  },
  { id }: { id: string },
): Promise<UndoResult> {
  if (!isIdString(id)) throw AppError.notFound();
  const { rows } = await db.query<OperationRow>(
    `SELECT "id"::text AS id, "kind", "resource", "actor_id"::text AS actor_id,
            "created_at" > now() - make_interval(days => ${UNDO_DAYS}) AS is_recent
       FROM "operations" WHERE "id" = $1`,
    [id],
  );
  const op = rows[0];
  const resource = op && resourceNamed(op.resource);
  if (!op || !resource) throw AppError.notFound();
  const ctx = contextFor(resource);
  const actor = await ctx.authorize(NEEDED[op.kind]);
  if (op.actor_id !== actor.userId && !actor.principal?.staff?.isAdmin) throw AppError.notFound();
  if (!op.is_recent) throw new AppError(409, 'engine.undo.expired', { params: { days: UNDO_DAYS } });
  const result: UndoResult = { reverted: [], skipped: [] };
  const events: RecordChange[] = [];
  await ctx.db.transaction(async (tx) => {
    // Claimed first: a second undo, here or on another server, waits for this one and then finds it done.
    const claimed = await tx.query(
      `UPDATE "operations" SET "undone_at" = now(), "undone_by" = $2 WHERE "id" = $1 AND "undone_at" IS NULL`,
      [id, isIdString(actor.userId) ? actor.userId : null],
    );
    if (!claimed.rowCount) throw new AppError(409, 'engine.undo.already');
    for (const row of await linkedRows(tx, op)) {
      const skip = (key: string, params: Record<string, unknown> = {}) =>
        result.skipped.push({ id: row.subject_id, reason: lang.t(key, params) });
      if (row.is_written_since) {
        skip('engine.undo.written_since');
        continue;
      }
      await tx.query('SAVEPOINT undo_record');
      try {
        const event = await revertRecord(ctx, tx, { row, actor });
        await tx.query('RELEASE SAVEPOINT undo_record');
        result.reverted.push(row.subject_id);
        events.push(event);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        await tx.query('ROLLBACK TO SAVEPOINT undo_record');
        if (error instanceof StaleVersion) skip('engine.undo.written_since');
        else if (error.status === 404) skip('engine.undo.gone');
        else skip(error.key, error.params);
      }
    }
    await writeActorActivity(tx, actor, {
      action: 'operations.undo',
      subjectType: 'operations',
      subjectId: id,
      changes: {
        resource: resource.name,
        kind: op.kind,
        reverted: result.reverted,
        skipped: result.skipped.map((s) => s.id),
      },
    });
  });
  await publishChanges(ctx.db, events, actor);
  return result;
}

/**
 * The records of the operation, one row each (the first audit row of each record, whose `changes` holds its
 * values before), latest first: undone in reverse, a child created after its parent goes before it.
 */
async function linkedRows(tx: Queryable, op: OperationRow): Promise<LinkedRow[]> {
  const { rows } = await tx.query<LinkedRow & { activity_id: string }>(
    `SELECT r."subject_id", r."action", r."activity_id"::text AS activity_id, a."changes",
            EXISTS (
              SELECT 1 FROM "activity_logs" l
               WHERE l."subject_type" = r."subject_type" AND l."subject_id" = r."subject_id"
                 AND l."id" > r."activity_id"
                 AND NOT EXISTS (SELECT 1 FROM "operation_records" o
                                  WHERE o."operation_id" = r."operation_id" AND o."activity_id" = l."id")
            ) AS is_written_since
       FROM "operation_records" r LEFT JOIN "activity_logs" a ON a."id" = r."activity_id"
      WHERE r."operation_id" = $1 AND r."subject_type" = $2
      ORDER BY r."activity_id" DESC`,
    [op.id, op.resource],
  );
  const bySubject = new Map<string, LinkedRow>();
  // Rows come latest first: the last one seen per record is its first (its values before the operation).
  for (const row of rows) bySubject.set(row.subject_id, row);
  const order = [...new Set(rows.map((r) => r.subject_id))];
  return order.map((subject) => {
    const first = bySubject.get(subject)!;
    const latest = rows.find((r) => r.subject_id === subject)!;
    return { ...first, is_written_since: latest.is_written_since };
  });
}

/** Reverts one record of the operation; an AppError says why it cannot be (the caller skips it). */
async function revertRecord(
  ctx: OperationContext,
  tx: Queryable,
  { row, actor }: { row: LinkedRow; actor: Actor },
): Promise<RecordChange> {
  const { resource } = ctx;
  const id = row.subject_id;
  const action = row.action.slice(resource.name.length + 1);
  if (row.changes === null) throw new AppError(409, 'engine.undo.no_record');
  if (action === 'update') {
    const changes = row.changes as Record<string, [unknown, unknown]>;
    const data = oldValues(ctx, changes, actor);
    // Inline children the operation changed (the parent's audit row keeps them, inline-history.ts) go back
    // to their items before it.
    const lists = inlineLists(resource, ctx.registry).filter((l) => Array.isArray(changes[l.key]));
    for (const list of lists) {
      const now = await inlineSnapshot(ctx, tx, list, id);
      // A child written on its own since (through its own route) leaves the children unlike what the
      // operation left: the record was written since, and is left alone.
      if (!sameItems(now, changes[list.key]![1])) throw new AppError(409, 'engine.undo.written_since');
      data[list.key] = itemsToRestore(list, changes[list.key]![0], now, actor);
    }
    const written = changes.version?.[1];
    const { own, children } = splitInline(validateBody(ctx, 'update', data), lists);
    await patchRecord(ctx, {
      tx,
      id,
      data: own,
      actor,
      expectedVersion: typeof written === 'number' ? written : null,
      inline: inlineWriter(ctx, { tx, parentId: id, children, actor, written: [] }),
    });
    return { resource, id, action: 'update' };
  }
  if (action === 'create') {
    const before = await removeRecord(ctx, { tx, id, actor });
    return { resource, id, action: 'delete', before };
  }
  if (action === 'delete') {
    if (!isSoftDelete(resource)) throw new AppError(409, 'engine.undo.purged');
    const scope = await rowScope(tx, resource, actor.principal);
    const trashed = await selectRow(tx, { resource, id, scope, forUpdate: true, trash: 'trash' });
    const at = trashed && (await trashedAt(tx, resource, id));
    if (!trashed || !at) throw new AppError(409, 'engine.undo.purged');
    await assertReferencesLive(ctx, tx, trashed);
    await restoreWithChildren(ctx, tx, { id, at });
    await assertHooksAllowRestore(ctx, tx, { id, actor, scope });
    await writeAudit(tx, { resource, action: 'restore', subjectId: id, changes: {}, actor });
    return { resource, id, action: 'create' };
  }
  throw new AppError(409, 'engine.undo.no_record');
}

/**
 * The values an update replaced, for the fields the undo may write: 403-like refusal (an AppError naming
 * the field) when one of them is a field the caller may not write now, or a secret (only its mask is kept).
 */
function oldValues(
  ctx: OperationContext,
  changes: Record<string, [unknown, unknown]>,
  actor: Actor,
): Record<string, unknown> {
  const restricted = restrictedFields(actor.principal, ctx.resource);
  const data: Record<string, unknown> = {};
  for (const f of fieldsOf(ctx.resource)) {
    const pair = changes[f.name];
    if (!pair || f.meta.readOnly) continue;
    if (f.meta.writeOnly)
      throw new AppError(409, 'engine.undo.secret', { params: { field: ctx.label(f.name) } });
    if (restricted.has(f.name))
      throw new AppError(403, 'engine.undo.field_denied', { params: { field: ctx.label(f.name) } });
    data[f.name] = pair[0];
  }
  return data;
}

/** Whether two lists of history items hold the same children (jsonb keeps no key order: compared by key). */
function sameItems(a: unknown, b: unknown): boolean {
  const canonical = (items: unknown) =>
    JSON.stringify(
      (Array.isArray(items) ? items : []).map((item: unknown) =>
        item && typeof item === 'object'
          ? Object.entries(item).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
          : item,
      ),
    );
  return canonical(a) === canonical(b);
}
