import { hashPassword } from '../../credentials/password.ts';
import { isIdString, isSoftDelete } from '../../../resources/define.ts';
import type { Resource } from '../../../resources/define.ts';
import { AppError } from '../../core/errors.ts';
import { can, type Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { diffChanges, writeAudit, type Actor, type Changes } from './audit.ts';
import type { OperationContext } from '../context.ts';
import { countUsers, InUseError, mapDbError } from './db-errors.ts';
import { loadDictionary } from '../dictionaries.ts';
import { fieldsOf, joinTableOf, type FieldInfo } from '../schema/fields.ts';
import { hooksOf } from '../hooks.ts';
import { hookContextOf, queueAfterCommit } from '../hook-runtime.ts';
import { deleteRow, insertRow, isValueTaken, replaceLinks, selectRow, updateRow } from './record-sql.ts';
import { permissionFor } from '../access.ts';
import { loadRecords } from '../list/records.ts';
import { assertNotHeld, trashWithChildren } from './trash-writes.ts';
import { isInScope, rowScope, scopeColumnsOf, UNRESTRICTED, type RowScope } from '../scope.ts';
import type { WireRecord } from '../list/wire.ts';

/**
 * One record's write path, inside the caller's transaction, shared by the operations, bulk calls, inline
 * has-many children and CSV import: hooks -> checks (dictionaries, unique) -> SQL (record-sql.ts) -> audit row.
 * A rule enforced here cannot be bypassed through another route.
 */

/**
 * Inserts one validated record with its links, hooks and audit row; returns the new id. What the resource's
 * afterWrite hook returns is copied into `extras` (for the response).
 */
export async function insertRecord(
  ctx: OperationContext,
  {
    tx,
    data,
    actor,
    extras = {},
  }: { tx: Queryable; data: Record<string, unknown>; actor: Actor; extras?: Record<string, unknown> },
): Promise<string> {
  const { resource } = ctx;
  const hooks = hooksOf(ctx.hooks, resource);
  const context = hookContextOf(tx, actor);
  await hooks.beforeWrite?.({ action: 'create', tx, id: null, before: null, data, actor, ...context });
  await checkDictionaries(ctx, tx, data, null);
  await checkUnique(ctx, tx, data, null, actor);
  await assertInScope(ctx, tx, { actor, record: { ...data, created_by: actor.userId }, isNew: true });
  const values = { ...(await columnValues(resource, data)), ...authorsOf(actor, true) };
  const id = await guarded(ctx, async () => {
    const newId = await insertRow(tx, resource, values);
    await writeLinks(resource, tx, newId, data);
    return newId;
  });
  const added = await hooks.afterWrite?.({ action: 'create', tx, id, before: null, data, actor, ...context });
  Object.assign(extras, added ?? {});
  await writeAudit(tx, {
    resource,
    action: 'create',
    subjectId: id,
    changes: diffChanges(resource, null, data),
    actor,
  });
  queueAfterCommit(hooks, { action: 'create', tx, id, before: null, data, actor });
  return id;
}

/**
 * A PATCH named a version that is not the record's current one (contract: "Nothing lost"). The operation
 * answers it as the 409 carrying the current record (operations.ts); nothing of the write is kept.
 */
export class StaleVersion extends AppError {
  constructor() {
    super(409, 'engine.version.stale', { fields: { version: ['engine.version.stale_short'] } });
  }
}

/**
 * Applies a validated partial update (only the keys given) with its hooks and audit row, and bumps the
 * record's version. With `expectedVersion` a record at another version is a StaleVersion; the compare is
 * made again in the UPDATE itself, so it holds between servers too. The audit row records
 * `version: [old, new]` (the history's numbering, history.ts) and is written for every write.
 */
export async function patchRecord(
  ctx: OperationContext,
  {
    tx,
    id,
    data: given,
    actor,
    extras = {},
    expectedVersion = null,
    auditAction = 'update',
    inline,
  }: {
    tx: Queryable;
    id: string;
    data: Record<string, unknown>;
    actor: Actor;
    extras?: Record<string, unknown>;
    expectedVersion?: number | null;
    /** A row action's key names its audit row (`gadgets.ship`); history.ts counts it as an update. */
    auditAction?: 'update' | 'restore' | (string & {});
    /**
     * Writes the record's inline lists after its own row and answers their changes for its audit row
     * (inline-history.ts inlineWriter), so the parent's version records its children.
     */
    inline?: () => Promise<Changes>;
  },
): Promise<void> {
  const { resource } = ctx;
  const hooks = hooksOf(ctx.hooks, resource);
  const scope = await writeScope(ctx, tx, actor);
  const before = await fetchRecord(ctx, { db: tx, id, forUpdate: true, scope, viewer: actor.principal });
  // Before the hooks and checks, so a stale write is a 409 rather than whatever its data would cause.
  if (expectedVersion !== null && before.version !== expectedVersion) throw new StaleVersion();
  const context = hookContextOf(tx, actor);
  await hooks.beforeWrite?.({ action: 'update', tx, id, before, data: given, actor, ...context });
  await checkDictionaries(ctx, tx, given, before);
  await checkUnique(ctx, tx, given, id, actor);
  // The stored scope columns, not `before`: that is the caller's view, without the fields hidden from it
  // (a hidden `user_id` or department would make a record the caller sees look out of its scope).
  const stored = await selectRow(tx, { resource, id, scope: UNRESTRICTED });
  await assertInScope(ctx, tx, { actor, record: { ...stored, ...given }, isNew: false });
  const values = { ...(await columnValues(resource, given)), ...authorsOf(actor, false) };
  const version = await guarded(ctx, async () => {
    const written = await updateRow(tx, { resource, id, values, expectedVersion });
    if (written !== null) await writeLinks(resource, tx, id, given);
    return written;
  });
  if (version === null) throw new StaleVersion();
  const added = await hooks.afterWrite?.({
    action: 'update',
    tx,
    id,
    before,
    data: given,
    actor,
    ...context,
  });
  Object.assign(extras, added ?? {});
  const changes = { ...diffChanges(resource, before, { ...before, ...given }), ...(await inline?.()) };
  changes.version = [version - 1, version];
  await writeAudit(tx, { resource, action: auditAction, subjectId: id, changes, actor });
  queueAfterCommit(hooks, { action: 'update', tx, id, before, data: given, actor });
}

/**
 * Deletes one record with its hooks and audit row (to the trash when its resource keeps one, unless `hard`:
 * an inline child left out of its parent's list); returns the record as it was (for its live event).
 */
export async function removeRecord(
  ctx: OperationContext,
  {
    tx,
    id,
    actor,
    detach = false,
    hard = false,
  }: { tx: Queryable; id: string; actor: Actor; detach?: boolean; hard?: boolean },
): Promise<WireRecord> {
  const { resource } = ctx;
  const scope = await writeScope(ctx, tx, actor);
  const before = await fetchRecord(ctx, { db: tx, id, forUpdate: true, scope, viewer: actor.principal });
  const hooks = hooksOf(ctx.hooks, resource);
  await hooks.beforeWrite?.({
    action: 'delete',
    tx,
    id,
    before,
    data: {},
    actor,
    ...hookContextOf(tx, actor),
    ...(detach ? { detach } : {}),
  });
  if (isSoftDelete(resource) && !hard) {
    // To the trash (trash-writes.ts): refused while live records still refer to it, as a foreign key would.
    await assertNotHeld(ctx, tx, id);
    await trashWithChildren(ctx, tx, id);
  } else
    try {
      await deleteRow(tx, resource, id);
    } catch (error) {
      try {
        mapDbError(resource, error, ctx.label);
      } catch (mapped) {
        if (mapped instanceof InUseError) mapped.recordId = id;
        throw mapped;
      }
    }
  await writeAudit(tx, {
    resource,
    action: 'delete',
    subjectId: id,
    changes: diffChanges(resource, before, null),
    actor,
  });
  queueAfterCommit(hooks, { action: 'delete', tx, id, before, data: {}, actor });
  return before;
}

/**
 * One record as the API sends it, with the given relations embedded (those `viewer` may see, scope.ts);
 * 404 when there is none or it lies outside the caller's data `scope`.
 */
export async function fetchRecord(
  ctx: Pick<OperationContext, 'resource' | 'registry' | 'hooks'>,
  {
    db,
    id,
    scope,
    viewer,
    includes = [],
    forUpdate = false,
  }: {
    db: Queryable;
    id: string;
    scope: RowScope;
    /** The caller the answer is for: rows out of its scope and fields it may not see are left out. */
    viewer: Principal | undefined;
    includes?: readonly string[];
    forUpdate?: boolean;
  },
): Promise<WireRecord> {
  if (!isIdString(id)) throw AppError.notFound();
  const row = await selectRow(db, { resource: ctx.resource, id, forUpdate, scope });
  if (!row) throw AppError.notFound();
  const { resource, registry, hooks } = ctx;
  const [record] = await loadRecords(db, { resource, registry, hooks, viewer }, [row], includes);
  return record!;
}

/** The data scope a write works in: the actor's (scope.ts); an inline child follows its parent's. */
function writeScope(ctx: OperationContext, tx: Queryable, actor: Actor): Promise<RowScope> {
  return ctx.isInlineChild ? Promise.resolve(UNRESTRICTED) : rowScope(tx, ctx.resource, actor.principal);
}

/**
 * A create or update may not leave the record outside the caller's data scope (a department it cannot see):
 * 422 naming the department field. A department (scoped by its own id) is not checked on create: its id is
 * not known yet.
 */
async function assertInScope(
  ctx: OperationContext,
  tx: Queryable,
  { actor, record, isNew }: { actor: Actor; record: Record<string, unknown>; isNew: boolean },
): Promise<void> {
  const scope = await writeScope(ctx, tx, actor);
  if (isInScope(ctx.resource, scope, record)) return;
  const columns = scopeColumnsOf(ctx.resource)!;
  if (isNew && columns.department === 'id') return;
  const field = columns.department ?? columns.owner ?? 'id';
  throw new AppError(422, 'engine.scope.out_of_scope', {
    params: { field: ctx.label(field) },
    fields: { [field]: ['engine.scope.out_of_scope_short'] },
  });
}

/**
 * Runs a write; a delete refused by a foreign key (InUseError, its transaction rolled back) becomes the 409
 * that says how many records of which resource still use it.
 */
export async function withUsersCounted<T>(ctx: OperationContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof InUseError) || !error.recordId) throw error;
    throw await countUsers(ctx.db, ctx.registry, error, error.recordId, ctx.lang);
  }
}

/**
 * Dictionary-backed fields take only the enabled entries of their dictionary (422 naming the field). On
 * update a value equal to the stored one passes, so a record whose entry was disabled later still saves.
 */
async function checkDictionaries(
  ctx: OperationContext,
  tx: Queryable,
  data: Record<string, unknown>,
  before: WireRecord | null,
): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const f of fieldsOf(ctx.resource)) {
    const slug = f.meta.dictionary;
    const value = data[f.name];
    if (!slug || value === undefined || value === null || value === '') continue;
    if (before && before[f.name] === value) continue;
    const entries = await loadDictionary(tx, slug, ctx.lang?.locale ?? 'zh-CN');
    if (!entries?.has(String(value))) errors[f.name] = ['validation.dictionary'];
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);
}

async function checkUnique(
  ctx: OperationContext,
  tx: Queryable,
  data: Record<string, unknown>,
  id: string | null,
  actor: Actor,
) {
  for (const f of fieldsOf(ctx.resource).filter((x) => x.meta.unique && data[x.name] != null)) {
    const value = data[f.name];
    const holder = await isValueTaken(tx, { resource: ctx.resource, field: f.name, value, id });
    if (!holder) continue;
    if (!holder.isTrashed) throw AppError.conflict(f.name, ctx.label(f.name));
    // A trashed record keeps its unique values: say so, with its id when the caller may restore it (the
    // delete permission, the record in its scope), so the screen can offer the restore; never the id of a
    // record the caller may not see.
    const mayRestore = await mayRestoreTrashed(ctx, tx, holder.id, actor);
    throw new AppError(409, 'engine.trash.unique_in_trash', {
      params: { field: ctx.label(f.name) },
      fields: { [f.name]: ['engine.trash.unique_in_trash_short'] },
      ...(mayRestore ? { literal: { trashed_id: [holder.id] } } : {}),
    });
  }
}

/** Whether the caller may restore the trashed record `id`: the delete permission, and the record in scope. */
async function mayRestoreTrashed(
  ctx: OperationContext,
  tx: Queryable,
  id: string,
  actor: Actor,
): Promise<boolean> {
  const { principal } = actor;
  if (!principal) return true;
  if (!can(principal, permissionFor(ctx.resource, 'delete'))) return false;
  const scope = await rowScope(tx, ctx.resource, principal);
  return (await selectRow(tx, { resource: ctx.resource, id, scope, trash: 'trash' })) !== undefined;
}

/**
 * `created_by` (on create) and `updated_by`: the acting user (null when it is not a user id). Exported for
 * the writes a module makes itself (the upload route), so that every write path records its author.
 */
export function authorsOf(actor: Actor, isNew: boolean): Record<string, string | null> {
  const userId = isIdString(actor.userId) ? actor.userId : null;
  return isNew ? { created_by: userId, updated_by: userId } : { updated_by: userId };
}

/** Column values to write: JSON as text, write-only values hashed when declared. */
async function columnValues(
  resource: Resource,
  data: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(resource)) {
    if (!f.isColumn || !(f.name in data) || f.meta.readOnly) continue;
    out[(f.meta.writeOnly && f.meta.column) || f.name] = await toColumn(f, data[f.name]);
  }
  return out;
}

async function toColumn(f: FieldInfo, value: unknown): Promise<unknown> {
  if (value === undefined || value === null) return null;
  if (f.meta.hash === 'argon2') return hashPassword(String(value));
  if (f.kind === 'json') return JSON.stringify(value);
  return value;
}

/** Replaces the many-to-many links given in `data`. */
async function writeLinks(resource: Resource, tx: Queryable, id: string, data: Record<string, unknown>) {
  for (const f of fieldsOf(resource).filter((x) => x.kind === 'references' && x.name in data)) {
    const targetIds = [...new Set((data[f.name] as string[] | undefined) ?? [])];
    await replaceLinks(tx, { join: joinTableOf(resource, f), id, targetIds });
  }
}

async function guarded<T>(ctx: OperationContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    return mapDbError(ctx.resource, error, ctx.label);
  }
}
