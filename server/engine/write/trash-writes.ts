import { isSoftDelete, type Resource } from '../../../resources/define.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import type { OperationContext } from '../context.ts';
import { liveSql } from '../scope.ts';
import { fieldsOf, ident } from '../schema/fields.ts';
import { restoreRows, trashRows } from './record-sql.ts';

/**
 * The trash's part of a delete and a restore (resources/define.ts `softDelete`): who still holds a record
 * (a live record of another resource referring to it: the 409 a hard delete's foreign key would give), and
 * the inline children that go to the trash and come back with their parent, stamped with its time.
 */

/** Resources whose records refer to `resource` (a belongs-to), its inline children left out. */
export function holdersOf(
  resource: Resource,
  registry: readonly Resource[],
): { holder: Resource; field: string }[] {
  const children = Object.values(resource.options.hasMany ?? {});
  return registry.flatMap((holder) =>
    fieldsOf(holder)
      .filter((f) => f.kind === 'reference' && f.meta.relation?.resource === resource.name)
      .filter((f) => !children.some((h) => h.resource === holder.name && h.foreignKey === f.name))
      .map((f) => ({ holder, field: f.name })),
  );
}

/**
 * A soft delete refused while live records still refer to this one: the 409 that names how many records of
 * which resource (`errors.holders` = the count), as a hard delete's foreign key gives.
 */
export async function assertNotHeld(ctx: OperationContext, tx: Queryable, id: string): Promise<void> {
  for (const { holder, field } of holdersOf(ctx.resource, ctx.registry)) {
    const live = liveSql(holder);
    const { rows } = await tx.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${ident(holder.table)} WHERE ${ident(field)} = $1${live ? ` AND ${live}` : ''}`,
      [id],
    );
    const count = Number(rows[0]?.n ?? 0);
    if (count === 0) continue;
    const key = `resources.${holder.name}.name_other`;
    const named = ctx.lang?.t(key);
    throw heldError(count, named && named !== key ? named : holder.name);
  }
}

/** The 409 of a record others hold: "still used by 3 staff", `errors.holders` the count. */
export function heldError(count: number, what: string, key = 'engine.record.in_use_by'): AppError {
  return new AppError(409, key, {
    params: { count, what },
    fields: { id: ['engine.record.in_use_short'] },
    literal: { holders: count },
  });
}

/** Moves a record and its inline children to the trash, all stamped with one time. */
export async function trashWithChildren(ctx: OperationContext, tx: Queryable, id: string): Promise<void> {
  const at = await trashRows(tx, { resource: ctx.resource, value: id });
  for (const child of inlineChildren(ctx))
    await trashRows(tx, { resource: child.resource, column: child.foreignKey, value: id, at });
}

/** Brings a record back with the inline children that went to the trash with it (the same time). */
export async function restoreWithChildren(
  ctx: OperationContext,
  tx: Queryable,
  { id, at }: { id: string; at: string },
): Promise<void> {
  await restoreRows(tx, { resource: ctx.resource, value: id, at });
  for (const child of inlineChildren(ctx))
    await restoreRows(tx, { resource: child.resource, column: child.foreignKey, value: id, at });
}

/**
 * A restore may not bring back a record that refers to a trashed one (its department, its maker): 409 naming
 * the field, so the user restores that one first.
 */
export async function assertReferencesLive(
  ctx: OperationContext,
  tx: Queryable,
  row: Record<string, unknown>,
): Promise<void> {
  for (const f of fieldsOf(ctx.resource)) {
    if (f.kind !== 'reference' || row[f.name] == null) continue;
    const target = ctx.registry.find((r) => r.name === f.meta.relation?.resource);
    if (!target || !isSoftDelete(target)) continue;
    const { rows } = await tx.query(
      `SELECT 1 FROM ${ident(target.table)} WHERE "id" = $1 AND "deleted_at" IS NOT NULL`,
      [row[f.name]],
    );
    if (rows.length)
      throw new AppError(409, 'engine.trash.reference_trashed', {
        params: { field: ctx.label(f.name) },
        fields: { [f.name]: ['engine.trash.reference_trashed_short'] },
      });
  }
}

/** The soft-delete children a record's inline has-many lists hold (they share its trash). */
function inlineChildren(ctx: OperationContext): { resource: Resource; foreignKey: string }[] {
  return Object.values(ctx.resource.options.hasMany ?? {}).flatMap((h) => {
    const child = ctx.registry.find((r) => r.name === h.resource);
    return child && isSoftDelete(child) ? [{ resource: child, foreignKey: h.foreignKey }] : [];
  });
}
