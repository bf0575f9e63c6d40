import { isSoftDelete, type Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { ident } from '../schema/fields.ts';
import { selectColumns } from '../list/records.ts';
import { scopeSql, type RowScope, type TrashRows } from '../scope.ts';

/**
 * The SQL statements of the engine's record writes, in one place: the storage seam under the operations
 * (operations.ts, bulk.ts, record-writes.ts, inline-writes.ts). Identifiers come from the resource
 * declaration and are quoted; every value is a bound parameter.
 */

const MAX_BIGINT = 9223372036854775807n;

/**
 * One record's row (its readable columns), locked for the transaction when `forUpdate`; undefined when none
 * or when it lies outside the caller's data `scope` (scope.ts): the same answer, so a 404 either way.
 */
export async function selectRow(
  db: Queryable,
  {
    resource,
    id,
    scope,
    forUpdate = false,
    trash = 'live',
  }: { resource: Resource; id: string; scope: RowScope; forUpdate?: boolean; trash?: TrashRows },
): Promise<Record<string, unknown> | undefined> {
  const lock = forUpdate ? ' FOR UPDATE' : '';
  const params: unknown[] = [id];
  const inScope = scopeSql(resource, scope, (value) => `$${params.push(value)}`, '', trash);
  const { rows } = await db.query(
    `SELECT ${selectColumns(resource)} FROM ${ident(resource.table)} WHERE "id" = $1${inScope ? ` AND ${inScope}` : ''}${lock}`,
    params,
  );
  return rows[0];
}

/** Inserts a row of column values (none: the defaults); returns the new id. */
export async function insertRow(
  tx: Queryable,
  resource: Resource,
  values: Record<string, unknown>,
): Promise<string> {
  const names = Object.keys(values);
  const sql = names.length
    ? `INSERT INTO ${ident(resource.table)} (${names.map(ident).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING "id"`
    : `INSERT INTO ${ident(resource.table)} DEFAULT VALUES RETURNING "id"`;
  const { rows } = await tx.query<{ id: string }>(sql, Object.values(values));
  return String(rows[0]!.id);
}

/**
 * Sets the given column values of one row (and `updated_at` when the resource keeps timestamps) and bumps its
 * `version`. With `expectedVersion` the row is written only while it still has that version: the compare is
 * in the UPDATE's WHERE, so of two servers writing over the same version only one wins. Returns the new
 * version, or null when the row was not written (a stale version).
 */
export async function updateRow(
  tx: Queryable,
  {
    resource,
    id,
    values,
    expectedVersion = null,
  }: { resource: Resource; id: string; values: Record<string, unknown>; expectedVersion?: number | null },
): Promise<number | null> {
  const params: unknown[] = [id, ...Object.values(values)];
  const sets = Object.keys(values).map((name, i) => `${ident(name)} = $${i + 2}`);
  if (resource.timestamps) sets.push('"updated_at" = now()');
  sets.push('"version" = "version" + 1');
  const stale = expectedVersion === null ? '' : ` AND "version" = $${params.push(expectedVersion)}`;
  const { rows } = await tx.query<{ version: number }>(
    `UPDATE ${ident(resource.table)} SET ${sets.join(', ')} WHERE "id" = $1${stale} RETURNING "version"`,
    params,
  );
  return rows[0] ? Number(rows[0].version) : null;
}

export async function deleteRow(tx: Queryable, resource: Resource, id: string): Promise<void> {
  await tx.query(`DELETE FROM ${ident(resource.table)} WHERE "id" = $1`, [id]);
}

/**
 * Moves live rows to the trash (soft delete): `deleted_at` set to `at` (default now). `column` picks the rows
 * by another column (a parent's inline children). Returns the time written.
 */
export async function trashRows(
  tx: Queryable,
  { resource, column = 'id', value, at }: { resource: Resource; column?: string; value: string; at?: string },
): Promise<string> {
  // The time as PostgreSQL's text: exact to the microsecond, so a restore finds the rows trashed with it.
  const { rows } = await tx.query<{ at: Date | string }>(
    `WITH moved AS (UPDATE ${ident(resource.table)} SET "deleted_at" = coalesce($2::timestamptz, now())
       WHERE ${ident(column)} = $1 AND "deleted_at" IS NULL RETURNING "deleted_at")
     SELECT coalesce($2::timestamptz, now())::text AS at`,
    [value, at ?? null],
  );
  return String(rows[0]!.at);
}

/** Brings trashed rows back: those of `column` = `value` that went to the trash at `at` (or any time). */
export async function restoreRows(
  tx: Queryable,
  { resource, column = 'id', value, at }: { resource: Resource; column?: string; value: string; at?: string },
): Promise<number> {
  const result = await tx.query(
    `UPDATE ${ident(resource.table)} SET "deleted_at" = NULL
      WHERE ${ident(column)} = $1 AND "deleted_at" IS NOT NULL AND ($2::timestamptz IS NULL OR "deleted_at" = $2::timestamptz)`,
    [value, at ?? null],
  );
  return result.rowCount;
}

/** When a trashed row went to the trash (PostgreSQL's text, exact to the microsecond), or null. */
export async function trashedAt(tx: Queryable, resource: Resource, id: string): Promise<string | null> {
  const { rows } = await tx.query<{ at: string | null }>(
    `SELECT "deleted_at"::text AS at FROM ${ident(resource.table)} WHERE "id" = $1`,
    [id],
  );
  return rows[0]?.at ?? null;
}

/**
 * Locks the rows of these ids in id order (two bulk calls over the same rows cannot deadlock); returns the
 * ids found in the caller's data `scope`, in that order. Ids that cannot be a row's (not digits, over
 * bigint) are never looked up.
 */
export async function lockRows(
  tx: Queryable,
  resource: Resource,
  ids: string[],
  scope: RowScope,
): Promise<string[]> {
  const valid = ids.filter((id) => /^\d{1,19}$/.test(id) && BigInt(id) <= MAX_BIGINT);
  if (valid.length === 0) return [];
  const params: unknown[] = [...valid];
  const inScope = scopeSql(resource, scope, (value) => `$${params.push(value)}`);
  const { rows } = await tx.query<{ id: string | number }>(
    `SELECT "id" FROM ${ident(resource.table)} WHERE "id" IN (${valid.map((_, i) => `$${i + 1}`).join(', ')})${inScope ? ` AND ${inScope}` : ''} ORDER BY "id" FOR UPDATE`,
    params,
  );
  return rows.map((row) => String(row.id));
}

/** A parent's child rows of one has-many list, locked for the rest of the transaction. */
export async function lockChildRows(
  tx: Queryable,
  { child, foreignKey, parentId }: { child: Resource; foreignKey: string; parentId: string },
): Promise<Record<string, unknown>[]> {
  const { rows } = await tx.query(
    `SELECT ${selectColumns(child)} FROM ${ident(child.table)} WHERE ${ident(foreignKey)} = $1${isSoftDelete(child) ? ' AND "deleted_at" IS NULL' : ''} ORDER BY "id" FOR UPDATE`,
    [parentId],
  );
  return rows;
}

/**
 * Whether another record (not `id`) holds this value of a field: false, or the holder (its id, and whether it
 * is in the trash: a trashed record keeps its unique values until it is purged).
 */
export async function isValueTaken(
  tx: Queryable,
  { resource, field, value, id }: { resource: Resource; field: string; value: unknown; id: string | null },
): Promise<false | { id: string; isTrashed: boolean }> {
  const trashed = isSoftDelete(resource) ? '"deleted_at" IS NOT NULL' : 'false';
  const { rows } = await tx.query<{ id: string | number; trashed: boolean }>(
    `SELECT "id", ${trashed} AS trashed FROM ${ident(resource.table)} WHERE ${ident(field)} = $1 AND "id" IS DISTINCT FROM $2 LIMIT 1`,
    [value, id],
  );
  const row = rows[0];
  return row ? { id: String(row.id), isTrashed: row.trashed === true } : false;
}

/** Replaces one record's many-to-many links in a join table. */
export async function replaceLinks(
  tx: Queryable,
  {
    join,
    id,
    targetIds,
  }: {
    join: { table: string; ownerColumn: string; targetColumn: string };
    id: string;
    targetIds: string[];
  },
): Promise<void> {
  await tx.query(`DELETE FROM ${ident(join.table)} WHERE ${ident(join.ownerColumn)} = $1`, [id]);
  if (targetIds.length === 0) return;
  await tx.query(
    `INSERT INTO ${ident(join.table)} (${ident(join.ownerColumn)}, ${ident(join.targetColumn)}) VALUES ${targetIds.map((_, i) => `($1, $${i + 2})`).join(', ')}`,
    [id, ...targetIds],
  );
}
