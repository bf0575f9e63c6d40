import type { Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { ident } from '../schema/fields.ts';
import { selectColumns } from '../list/records.ts';
import { scopeSql, type RowScope } from '../scope.ts';

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
  }: { resource: Resource; id: string; scope: RowScope; forUpdate?: boolean },
): Promise<Record<string, unknown> | undefined> {
  const lock = forUpdate ? ' FOR UPDATE' : '';
  const params: unknown[] = [id];
  const inScope = scopeSql(resource, scope, (value) => `$${params.push(value)}`);
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
    `SELECT ${selectColumns(child)} FROM ${ident(child.table)} WHERE ${ident(foreignKey)} = $1 ORDER BY "id" FOR UPDATE`,
    [parentId],
  );
  return rows;
}

/** Whether another record (not `id`) holds this value of a field. */
export async function isValueTaken(
  tx: Queryable,
  { resource, field, value, id }: { resource: Resource; field: string; value: unknown; id: string | null },
): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM ${ident(resource.table)} WHERE ${ident(field)} = $1 AND "id" IS DISTINCT FROM $2 LIMIT 1`,
    [value, id],
  );
  return rows.length > 0;
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
