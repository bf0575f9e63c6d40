import { hashPassword } from '../auth/password.ts';
import { isIdString } from '../../resources/define.ts';
import type { Resource } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import { validate } from '../core/http.ts';
import type { Db, Queryable } from '../db/index.ts';
import { publishEvent } from '../events/hub.ts';
import { diffChanges, writeAudit, type Actor } from './audit.ts';
import { countUsers, InUseError, mapDbError } from './db-errors.ts';
import { loadDictionary } from './dictionaries.ts';
import { fieldsOf, ident, joinTableOf, type FieldInfo } from './fields.ts';
import { bodySchemas, inlineLists, type InlineItem, type InlineList } from '../../resources/inline-lists.ts';
import { assertIncludesReadable, mayRead } from './include-access.ts';
import { hooksOf } from './hooks.ts';
import { fieldLabel, type Lang } from './labels.ts';
import { parseListQuery, type RawQuery } from './query.ts';
import { readPage } from './paging.ts';
import { loadRecords, selectColumns } from './records.ts';
import type { WireRecord } from './wire.ts';
import { withoutSystemKeys } from '../../resources/write.ts';

/** Kept here for callers that read it from operations (paging.ts owns it). */
export { COUNT_CAP, ESTIMATE_FLOOR } from './paging.ts';

export type Action = 'read' | 'create' | 'update' | 'delete' | 'export' | 'import';

/**
 * What every operation needs. `authorize(action)` checks `<permission>` (read) or `<permission>.<action>`
 * and resolves to the acting user (401/403 otherwise); `label(field)` names a field in the caller's language.
 */
export interface OperationContext {
  db: Db;
  resource: Resource;
  registry: readonly Resource[];
  authorize(action: Action): Promise<Actor>;
  label(field: string): string;
  /** The caller's language, for messages about other resources' fields (inline has-many children). */
  lang?: Lang;
}

export interface ListResult {
  data: WireRecord[];
  meta: { pagination: Pagination };
}

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
  /** Pass as `cursor=` (same query) for the following page without an OFFSET walk; null at the end. */
  next_cursor: string | null;
  /** `total` is the planner's row estimate (unfiltered list of a big table). */
  total_is_estimate?: true;
  /** The count stopped at COUNT_CAP: `total` is the cap ("10,000+"). */
  total_is_capped?: true;
}

/** Thick operations, each in the order access -> validate -> write -> audit. Routes only call these. */
export async function listRecords(ctx: OperationContext, raw: RawQuery): Promise<ListResult> {
  const actor = await ctx.authorize('read');
  const { db, resource } = ctx;
  const q = parseListQuery(resource, raw);
  assertIncludesReadable(resource, ctx.registry, actor.principal, q.includes);
  const page = await readPage(db, resource, q);
  const data = await loadRecords(db, resource, ctx.registry, page.rows, q.includes);
  const pagination: Pagination = {
    total: page.total,
    count: data.length,
    per_page: q.size,
    current_page: page.currentPage,
    total_pages: Math.ceil(page.total / q.size),
    next_cursor: page.nextCursor,
  };
  if (page.isEstimate) pagination.total_is_estimate = true;
  if (page.isCapped) pagination.total_is_capped = true;
  return { data, meta: { pagination } };
}

export async function readRecord(ctx: OperationContext, id: string, raw: RawQuery = {}): Promise<WireRecord> {
  const actor = await ctx.authorize('read');
  const includes = requestedIncludes(ctx, raw);
  assertIncludesReadable(ctx.resource, ctx.registry, actor.principal, includes);
  return fetchRecord(ctx, ctx.db, id, includes);
}

/** The relations `include=a,b` asks to embed in a single record's answer (read, create, update). */
function requestedIncludes(ctx: OperationContext, raw: RawQuery): string[] {
  return parseListQuery(ctx.resource, { include: raw.include }).includes;
}

/**
 * Creates a record, and the items of its inline has-many lists (resources/inline-lists.ts) in the same transaction. The
 * answer embeds the inline lists and the relations `include` names.
 */
export async function createRecord(
  ctx: OperationContext,
  body: unknown,
  raw: RawQuery = {},
): Promise<WireRecord> {
  const actor = await ctx.authorize('create');
  const asked = requestedIncludes(ctx, raw);
  assertIncludesReadable(ctx.resource, ctx.registry, actor.principal, asked);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const data = validate(bodySchemas(ctx.resource, ctx.registry).create, withoutSystemKeys(body)) as Record<
    string,
    unknown
  >;
  const { own, children } = splitInline(data, lists);
  const extras: Record<string, unknown> = {};
  const written: RecordChange[] = [];
  const id = await ctx.db.transaction(async (tx) => {
    const newId = await insertRecord(ctx, tx, own, actor, extras);
    written.push(...(await writeInlineLists(ctx, tx, newId, children, actor, true)));
    return newId;
  });
  await emitRecordChange(ctx.db, { resource: ctx.resource, id, action: 'create' }, actor);
  for (const change of written) await emitRecordChange(ctx.db, change, actor);
  const includes = [...new Set([...readableLists(lists, actor), ...asked])];
  return { ...(await fetchRecord(ctx, ctx.db, id, includes)), ...extras };
}

/** The inline lists a create/update response embeds: those whose child resource the caller may read. */
function readableLists(lists: readonly InlineList[], actor: Actor): string[] {
  return lists.filter((l) => mayRead(actor.principal, l.child)).map((l) => l.key);
}

/**
 * Partial update; a given inline has-many list replaces that set of children, in the same transaction. The
 * answer embeds the inline lists and the relations `include` names.
 */
export async function updateRecord(
  ctx: OperationContext,
  id: string,
  body: unknown,
  raw: RawQuery = {},
): Promise<WireRecord> {
  const actor = await ctx.authorize('update');
  const asked = requestedIncludes(ctx, raw);
  assertIncludesReadable(ctx.resource, ctx.registry, actor.principal, asked);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const input = withoutSystemKeys(body);
  const parsed = validate(bodySchemas(ctx.resource, ctx.registry).update, input) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(parsed).filter(([k]) => k in (input as object)));
  const { own, children } = splitInline(given, lists);
  const extras: Record<string, unknown> = {};
  const written: RecordChange[] = [];
  await withUsersCounted(ctx, async () => {
    await ctx.db.transaction(async (tx) => {
      await patchRecord(ctx, tx, id, own, actor, extras);
      written.push(...(await writeInlineLists(ctx, tx, id, children, actor, false)));
    });
  });
  await emitRecordChange(ctx.db, { resource: ctx.resource, id, action: 'update' }, actor);
  for (const change of written) await emitRecordChange(ctx.db, change, actor);
  const includes = [...new Set([...readableLists(lists, actor), ...asked])];
  return { ...(await fetchRecord(ctx, ctx.db, id, includes)), ...extras };
}

export async function deleteRecord(ctx: OperationContext, id: string): Promise<null> {
  const actor = await ctx.authorize('delete');
  await withUsersCounted(ctx, () => ctx.db.transaction((tx) => removeRecord(ctx, tx, id, actor)));
  await emitRecordChange(ctx.db, { resource: ctx.resource, id, action: 'delete' }, actor);
  return null;
}

/** The most ids one bulk call takes (contract amendment "Bulk calls"). */
export const MAX_BULK_IDS = 1000;
/** Most ids a bulk call's live event lists (NOTIFY payloads stay under PostgreSQL's 8000 bytes). */
const MAX_EVENT_IDS = 200;
const MAX_BIGINT = 9223372036854775807n;

/**
 * `PATCH <path>?ids=1,2,3`: the same partial update applied to every listed record in one transaction, each
 * through the single update's path (hooks, unique checks, inline lists, audit row), so all or nothing. A
 * missing id is a 404 whose `errors.ids` lists them; `data` is the ids, in the order given.
 */
export async function updateRecords(
  ctx: OperationContext,
  rawIds: unknown,
  body: unknown,
): Promise<string[]> {
  const actor = await ctx.authorize('update');
  const ids = parseBulkIds(rawIds);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const input = withoutSystemKeys(body);
  const parsed = validate(bodySchemas(ctx.resource, ctx.registry).update, input) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(parsed).filter(([k]) => k in (input as object)));
  const written: RecordChange[] = [];
  await ctx.db.transaction(async (tx) => {
    for (const id of await lockAll(ctx, tx, ids)) {
      // Hooks may adjust the data they are given, so every record gets its own copy.
      const { own, children } = splitInline(structuredClone(given), lists);
      await patchRecord(ctx, tx, id, own, actor);
      written.push(...(await writeInlineLists(ctx, tx, id, children, actor, false)));
    }
  });
  await emitBulkChange(ctx, 'update', ids, actor);
  for (const change of written) await emitRecordChange(ctx.db, change, actor);
  return ids;
}

/**
 * `DELETE <path>?ids=1,2,3`: every listed record deleted in one transaction through the single delete's path
 * (hooks, audit row, 409 when still in use), all or nothing; 404 naming the missing ids. `data` is the ids.
 */
export async function deleteRecords(ctx: OperationContext, rawIds: unknown): Promise<string[]> {
  const actor = await ctx.authorize('delete');
  const ids = parseBulkIds(rawIds);
  await ctx.db.transaction(async (tx) => {
    for (const id of await lockAll(ctx, tx, ids)) await removeRecord(ctx, tx, id, actor);
  });
  await emitBulkChange(ctx, 'delete', ids, actor);
  return ids;
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
async function lockAll(ctx: OperationContext, tx: Queryable, ids: string[]): Promise<string[]> {
  const valid = ids.filter((id) => /^\d{1,19}$/.test(id) && BigInt(id) <= MAX_BIGINT);
  const found = new Set<string>();
  if (valid.length) {
    const { rows } = await tx.query<{ id: string | number }>(
      `SELECT "id" FROM ${ident(ctx.resource.table)} WHERE "id" IN (${valid.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY "id" FOR UPDATE`,
      valid,
    );
    for (const row of rows) found.add(String(row.id));
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw new AppError(404, 'engine.bulk.not_found', {
      params: { count: missing.length },
      literal: { ids: missing },
    });
  return valid.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

/**
 * One live event per committed bulk call (lists refresh once): `id` null and `ids` the records (null when
 * more than MAX_EVENT_IDS, meaning "any of them"), like an import's event.
 */
function emitBulkChange(
  ctx: OperationContext,
  action: 'update' | 'delete',
  ids: string[],
  actor: Actor,
): Promise<void> {
  const data = {
    resource: ctx.resource.name,
    id: null,
    action,
    ids: ids.length <= MAX_EVENT_IDS ? ids : null,
    actor_id: actor.userId,
  };
  return publishEvent(ctx.db, { type: 'record', data, permission: ctx.resource.permission });
}

/** Deletes one record with its hooks and audit row, inside the caller's transaction. */
async function removeRecord(ctx: OperationContext, tx: Queryable, id: string, actor: Actor): Promise<void> {
  const { resource } = ctx;
  const before = await fetchRecord(ctx, tx, id, [], true);
  await hooksOf(resource).beforeWrite?.({ action: 'delete', tx, id, before, data: {}, actor });
  try {
    await tx.query(`DELETE FROM ${ident(resource.table)} WHERE "id" = $1`, [id]);
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
}

/** A committed write, for its live event. */
interface RecordChange {
  resource: Resource;
  id: string;
  action: 'create' | 'update' | 'delete';
}

/** Live event after commit (server/events): streams of holders of the resource's permission refresh. */
function emitRecordChange(db: Db, { resource, id, action }: RecordChange, actor: Actor) {
  const data = { resource: resource.name, id, action, actor_id: actor.userId };
  return publishEvent(db, { type: 'record', data, permission: resource.permission });
}

/** Separates the inline has-many lists from the record's own fields. */
function splitInline(
  data: Record<string, unknown>,
  lists: InlineList[],
): { own: Record<string, unknown>; children: Map<InlineList, InlineItem[]> } {
  const own = { ...data };
  const children = new Map<InlineList, InlineItem[]>();
  for (const list of lists) {
    if (!(list.key in own)) continue;
    const items = own[list.key] as InlineItem[] | undefined;
    delete own[list.key];
    if (items !== undefined) children.set(list, items);
  }
  return { own, children };
}

/**
 * Writes the given inline lists of one parent (inside its transaction): every id is checked first (a 422 on
 * `<key>.<index>.id` when it is not one of this parent's children, or listed twice), then children left out
 * are deleted, items with an id updated (skipped when nothing changes) and the others created, each through
 * the child's own write path (hooks, unique checks, audit row). Errors name `<key>.<index>.<field>`.
 * Returns the writes, for their live events after commit.
 */
async function writeInlineLists(
  ctx: OperationContext,
  tx: Queryable,
  parentId: string,
  children: Map<InlineList, InlineItem[]>,
  actor: Actor,
  isNew: boolean,
): Promise<RecordChange[]> {
  const plans: { list: InlineList; items: InlineItem[]; existing: Map<string, WireRecord> }[] = [];
  const errors: Record<string, string[]> = {};
  for (const [list, items] of children) {
    const existing = isNew ? [] : await lockedChildren(ctx, tx, list, parentId);
    const byId = new Map(existing.map((r) => [r.id, r]));
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (item.id === undefined) return;
      if (!byId.has(item.id)) errors[`${list.key}.${index}.id`] = ['engine.record.not_a_child'];
      else if (seen.has(item.id)) errors[`${list.key}.${index}.id`] = ['engine.record.duplicate_child'];
      seen.add(item.id);
    });
    plans.push({ list, items, existing: byId });
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);

  const written: RecordChange[] = [];
  for (const { list, items, existing } of plans) {
    const { child, key, foreignKey } = list;
    const kept = new Set(items.flatMap((item) => (item.id === undefined ? [] : [item.id])));
    for (const id of existing.keys()) {
      if (kept.has(id)) continue;
      await asItemOf(key, null, () => removeRecord(childContext(ctx, list, null), tx, id, actor));
      written.push({ resource: child, id, action: 'delete' });
    }
    for (const [index, { id, ...fields }] of items.entries()) {
      const itemCtx = childContext(ctx, list, index);
      if (id === undefined) {
        const data = { ...fields, [foreignKey]: parentId };
        const newId = await asItemOf(key, index, () => insertRecord(itemCtx, tx, data, actor));
        written.push({ resource: child, id: newId, action: 'create' });
        continue;
      }
      const before = existing.get(id)!;
      if (Object.keys(diffChanges(child, before, { ...before, ...fields })).length === 0) continue;
      await asItemOf(key, index, () => patchRecord(itemCtx, tx, id, fields, actor));
      written.push({ resource: child, id, action: 'update' });
    }
  }
  return written;
}

/** A parent's current children of one list, locked for the rest of the transaction. */
async function lockedChildren(
  ctx: OperationContext,
  tx: Queryable,
  list: InlineList,
  parentId: string,
): Promise<WireRecord[]> {
  const { rows } = await tx.query(
    `SELECT ${selectColumns(list.child)} FROM ${ident(list.child.table)} WHERE ${ident(list.foreignKey)} = $1 ORDER BY "id" FOR UPDATE`,
    [parentId],
  );
  return loadRecords(tx, list.child, ctx.registry, rows);
}

/**
 * The context a child write runs in: the child resource, the parent's actor (the parent's permission was
 * checked), and labels that say which item a message is about ("Parts item 3: Code").
 */
function childContext(ctx: OperationContext, list: InlineList, index: number | null): OperationContext {
  const { lang } = ctx;
  return {
    ...ctx,
    resource: list.child,
    authorize: () => Promise.reject(new Error('inline children are authorized through their parent')),
    label: (field) => {
      if (!lang) return index === null ? list.key : `${list.key}.${index}.${field}`;
      const childField = fieldLabel(lang, list.child, field);
      if (index === null) return ctx.label(list.key);
      const params = { list: ctx.label(list.key), index: index + 1, field: childField };
      return lang.t('engine.record.child_field', params);
    },
  };
}

/**
 * Runs a child write, renaming the fields of its errors: `<key>.<index>.<field>` for an item of the list,
 * `<key>` alone for a child the list left out (its delete failed).
 */
async function asItemOf<T>(key: string, index: number | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields || error instanceof InUseError) throw error;
    const fields: Record<string, string[]> = {};
    for (const [field, keys] of Object.entries(error.fields)) {
      const name = index === null ? key : `${key}.${index}.${field}`;
      fields[name] = [...(fields[name] ?? []), ...keys];
    }
    throw new AppError(error.status, error.key, { params: error.params, fields, headers: error.headers });
  }
}

/**
 * Inserts one validated record with its links, hooks and audit row; returns the new id. Used by import too.
 * What the resource's afterWrite hook returns is copied into `extras` (for the response).
 */
export async function insertRecord(
  ctx: OperationContext,
  tx: Queryable,
  data: Record<string, unknown>,
  actor: Actor,
  extras: Record<string, unknown> = {},
): Promise<string> {
  const { resource } = ctx;
  const hooks = hooksOf(resource);
  await hooks.beforeWrite?.({ action: 'create', tx, id: null, before: null, data, actor });
  await checkDictionaries(ctx, tx, data, null);
  await checkUnique(ctx, tx, data, null);
  const values = await columnValues(resource, data);
  const names = Object.keys(values);
  const sql = names.length
    ? `INSERT INTO ${ident(resource.table)} (${names.map(ident).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING "id"`
    : `INSERT INTO ${ident(resource.table)} DEFAULT VALUES RETURNING "id"`;
  const id = await guarded(ctx, async () => {
    const { rows } = await tx.query<{ id: string }>(sql, Object.values(values));
    const newId = String(rows[0]!.id);
    await writeLinks(resource, tx, newId, data);
    return newId;
  });
  const added = await hooks.afterWrite?.({ action: 'create', tx, id, before: null, data, actor });
  Object.assign(extras, added ?? {});
  await writeAudit(tx, {
    resource,
    action: 'create',
    subjectId: id,
    changes: diffChanges(resource, null, data),
    actor,
  });
  return id;
}

/** Applies a validated partial update with its audit row. Used by import's upsert too. */
export async function patchRecord(
  ctx: OperationContext,
  tx: Queryable,
  id: string,
  given: Record<string, unknown>,
  actor: Actor,
  extras: Record<string, unknown> = {},
): Promise<void> {
  const { resource } = ctx;
  const hooks = hooksOf(resource);
  const before = await fetchRecord(ctx, tx, id, [], true);
  await hooks.beforeWrite?.({ action: 'update', tx, id, before, data: given, actor });
  await checkDictionaries(ctx, tx, given, before);
  await checkUnique(ctx, tx, given, id);
  const values = await columnValues(resource, given);
  const sets = Object.keys(values).map((name, i) => `${ident(name)} = $${i + 2}`);
  if (resource.timestamps) sets.push('"updated_at" = now()');
  await guarded(ctx, async () => {
    if (sets.length)
      await tx.query(`UPDATE ${ident(resource.table)} SET ${sets.join(', ')} WHERE "id" = $1`, [
        id,
        ...Object.values(values),
      ]);
    await writeLinks(resource, tx, id, given);
  });
  const added = await hooks.afterWrite?.({ action: 'update', tx, id, before, data: given, actor });
  Object.assign(extras, added ?? {});
  const changes = diffChanges(resource, before, { ...before, ...given });
  if (Object.keys(changes).length)
    await writeAudit(tx, { resource, action: 'update', subjectId: id, changes, actor });
}

async function fetchRecord(
  ctx: OperationContext,
  db: Queryable,
  id: string,
  includes: readonly string[] = [],
  forUpdate = false,
): Promise<WireRecord> {
  if (!isIdString(id)) throw AppError.notFound();
  const { resource } = ctx;
  const lock = forUpdate ? ' FOR UPDATE' : '';
  const { rows } = await db.query(
    `SELECT ${selectColumns(resource)} FROM ${ident(resource.table)} WHERE "id" = $1${lock}`,
    [id],
  );
  if (rows.length === 0) throw AppError.notFound();
  const [record] = await loadRecords(db, resource, ctx.registry, rows, includes);
  return record!;
}

/**
 * Runs a write; a delete refused by a foreign key (InUseError, its transaction rolled back) becomes the 409
 * that says how many records of which resource still use it.
 */
async function withUsersCounted<T>(ctx: OperationContext, fn: () => Promise<T>): Promise<T> {
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
) {
  for (const f of fieldsOf(ctx.resource).filter((x) => x.meta.unique && data[x.name] != null)) {
    const { rows } = await tx.query(
      `SELECT 1 FROM ${ident(ctx.resource.table)} WHERE ${ident(f.name)} = $1 AND "id" IS DISTINCT FROM $2 LIMIT 1`,
      [data[f.name], id],
    );
    if (rows.length) throw AppError.conflict(f.name, ctx.label(f.name));
  }
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
    const j = joinTableOf(resource, f);
    const ids = [...new Set((data[f.name] as string[] | undefined) ?? [])];
    await tx.query(`DELETE FROM ${ident(j.table)} WHERE ${ident(j.ownerColumn)} = $1`, [id]);
    if (ids.length === 0) continue;
    await tx.query(
      `INSERT INTO ${ident(j.table)} (${ident(j.ownerColumn)}, ${ident(j.targetColumn)}) VALUES ${ids.map((_, i) => `($1, $${i + 2})`).join(', ')}`,
      [id, ...ids],
    );
  }
}

async function guarded<T>(ctx: OperationContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    return mapDbError(ctx.resource, error, ctx.label);
  }
}
