import { hashPassword } from '../auth/password.ts';
import type { Resource } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import { validate } from '../core/http.ts';
import type { Db, Queryable } from '../db/index.ts';
import { publishEvent } from '../events/hub.ts';
import { diffChanges, writeAudit, type Actor } from './audit.ts';
import { mapDbError } from './db-errors.ts';
import { fieldsOf, ident, joinTableOf, type FieldInfo } from './fields.ts';
import { hooksOf } from './hooks.ts';
import { parseListQuery, type RawQuery } from './query.ts';
import { loadRecords, selectColumns, type WireRecord } from './records.ts';
import { withoutSystemKeys, writeSchemas } from './schemas.ts';

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
  total_is_estimate?: true;
}

/** Thick operations, each in the order access -> validate -> write -> audit. Routes only call these. */
export async function listRecords(ctx: OperationContext, raw: RawQuery): Promise<ListResult> {
  await ctx.authorize('read');
  const { db, resource } = ctx;
  const q = parseListQuery(resource, raw);
  const table = ident(resource.table);
  const offset = (q.page - 1) * q.size;
  const { rows } = await db.query(
    `SELECT ${selectColumns(resource)} FROM ${table} ${q.where} ${q.orderBy} LIMIT ${q.size} OFFSET ${offset}`,
    q.params,
  );
  const { total, isEstimate } = await countRows(db, resource, q.where, q.params, !q.hasFilter);
  const data = await loadRecords(db, resource, ctx.registry, rows, q.includes);
  const pagination: Pagination = {
    total,
    count: data.length,
    per_page: q.size,
    current_page: q.page,
    total_pages: Math.ceil(total / q.size),
  };
  if (isEstimate) pagination.total_is_estimate = true;
  return { data, meta: { pagination } };
}

export async function readRecord(ctx: OperationContext, id: string, raw: RawQuery = {}): Promise<WireRecord> {
  await ctx.authorize('read');
  const includes = parseListQuery(ctx.resource, { include: raw.include }).includes;
  return fetchRecord(ctx, ctx.db, id, includes);
}

export async function createRecord(ctx: OperationContext, body: unknown): Promise<WireRecord> {
  const actor = await ctx.authorize('create');
  const data = validate(writeSchemas(ctx.resource).create, withoutSystemKeys(body)) as Record<
    string,
    unknown
  >;
  const extras: Record<string, unknown> = {};
  const id = await ctx.db.transaction((tx) => insertRecord(ctx, tx, data, actor, extras));
  await emitRecordChange(ctx, id, 'create', actor);
  return { ...(await fetchRecord(ctx, ctx.db, id)), ...extras };
}

export async function updateRecord(ctx: OperationContext, id: string, body: unknown): Promise<WireRecord> {
  const actor = await ctx.authorize('update');
  const input = withoutSystemKeys(body);
  const parsed = validate(writeSchemas(ctx.resource).update, input) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(parsed).filter(([k]) => k in (input as object)));
  const extras: Record<string, unknown> = {};
  await ctx.db.transaction((tx) => patchRecord(ctx, tx, id, given, actor, extras));
  await emitRecordChange(ctx, id, 'update', actor);
  return { ...(await fetchRecord(ctx, ctx.db, id)), ...extras };
}

export async function deleteRecord(ctx: OperationContext, id: string): Promise<null> {
  const actor = await ctx.authorize('delete');
  const { resource } = ctx;
  await ctx.db.transaction(async (tx) => {
    const before = await fetchRecord(ctx, tx, id, [], true);
    await hooksOf(resource).beforeWrite?.({ action: 'delete', tx, id, before, data: {}, actor });
    try {
      await tx.query(`DELETE FROM ${ident(resource.table)} WHERE "id" = $1`, [id]);
    } catch (error) {
      mapDbError(resource, error, ctx.label);
    }
    await writeAudit(tx, {
      resource,
      action: 'delete',
      subjectId: id,
      changes: diffChanges(resource, before, null),
      actor,
    });
  });
  await emitRecordChange(ctx, id, 'delete', actor);
  return null;
}

/** Live event after commit (server/events): streams of holders of the resource's permission refresh. */
function emitRecordChange(ctx: OperationContext, id: string, action: Action, actor: Actor) {
  const data = { resource: ctx.resource.name, id, action, actor_id: actor.userId };
  return publishEvent(ctx.db, { type: 'record', data, permission: ctx.resource.permission });
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
  if (!/^\d{1,19}$/.test(id)) throw AppError.notFound();
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

/** PostgreSQL's row estimate for big tables with no filter; count(*) otherwise. */
async function countRows(
  db: Db,
  resource: Resource,
  where: string,
  params: unknown[],
  mayEstimate: boolean,
): Promise<{ total: number; isEstimate: boolean }> {
  if (mayEstimate && resource.options.estimatedTotal) {
    const { rows } = await db.query<{ n: number | string }>(
      `SELECT reltuples::bigint AS n FROM pg_class WHERE oid = to_regclass($1)`,
      [`"${resource.table}"`],
    );
    const n = Number(rows[0]?.n ?? -1);
    if (n >= 0) return { total: n, isEstimate: true };
  }
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${ident(resource.table)} ${where}`,
    params,
  );
  return { total: Number(rows[0]!.n), isEstimate: false };
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
