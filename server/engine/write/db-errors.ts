import type { Resource } from '../../../resources/define.ts';
import { appErrorOfDb, classifyDbError, columnOfConstraint, referencingTable } from '../../core/db-errors.ts';
import type { DbErrorLike } from '../../core/db-errors.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import { constraintName } from '../schema/ddl.ts';
import { fieldsOf, ident, joinTableOf } from '../schema/fields.ts';
import type { Lang } from '../labels.ts';

/**
 * Maps a database error from a write to the contract (server/core/db-errors.ts is the one mapping; this adds
 * what the resource declaration knows): a unique violation (23505) is a 409 naming the field (the pre-check
 * can lose a race), a missing referenced record (23503 on insert/update) a 422 on the field, a record others
 * still use (23503 on delete) an `InUseError` (a 409 that `countUsers` words as "still used by 3 shipments"),
 * class 22 a 422, an unreachable database a 503. Anything else is rethrown.
 */
export function mapDbError(resource: Resource, error: unknown, label: (field: string) => string): never {
  const kind = classifyDbError(error);
  const e = error as DbErrorLike;
  if (kind === 'inUse') {
    const table = referencingTable(e);
    const column = columnOfConstraint({ ...e, table });
    throw new InUseError(table, column);
  }
  const field = e.constraint ? fieldOfConstraint(resource, e.constraint) : undefined;
  if (kind === 'unique' && field) throw AppError.conflict(field, label(field));
  if (kind === 'foreignKey' && field)
    throw AppError.validation({ [field]: ['engine.record.reference_missing'] });
  const mapped = appErrorOfDb(error, { label });
  if (mapped) throw mapped;
  throw error;
}

/** A delete refused because rows of `table` (column `column`) still reference the record. */
export class InUseError extends AppError {
  /** The record whose delete was refused (set by the engine's delete). */
  recordId: string | undefined;
  constructor(
    readonly table: string | undefined,
    readonly column: string | undefined,
  ) {
    super(409, 'engine.record.in_use', { fields: { id: ['engine.record.in_use_short'] } });
  }
}

/**
 * Words an InUseError after its transaction ended: counts the rows that still use record `id` and names
 * their resource in the caller's language ("still used by 3 gadget parts"). Falls back to the plain 409.
 */
export async function countUsers(
  db: Queryable,
  registry: readonly Resource[],
  error: InUseError,
  id: string,
  lang: Lang | undefined,
): Promise<AppError> {
  const { table, column } = error;
  if (!table || !column || !lang) return error;
  try {
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${ident(table)} WHERE ${ident(column)} = $1`,
      [id],
    );
    const count = Number(rows[0]?.n ?? 0);
    const user = registry.find((r) => r.table === table);
    const key = user ? `resources.${user.name}.name_other` : '';
    const named = user ? lang.t(key) : table;
    const what = named === key ? user!.name : named;
    return new AppError(409, 'engine.record.in_use_by', {
      params: { count, what },
      fields: { id: ['engine.record.in_use_short'] },
    });
  } catch {
    return error;
  }
}

function fieldOfConstraint(resource: Resource, constraint: string): string | undefined {
  for (const f of fieldsOf(resource)) {
    if (f.kind === 'references') {
      const j = joinTableOf(resource, f);
      if (constraint === constraintName(j.table, j.targetColumn, 'fkey')) return f.name;
      continue;
    }
    const names = [
      constraintName(resource.table, f.name, 'key'),
      constraintName(resource.table, f.name, 'fkey'),
    ];
    if (names.includes(constraint)) return f.name;
  }
  return undefined;
}
