import { resources } from '../../../resources/index.ts';
import { isIdString } from '../../../resources/define.ts';
import { can, type Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { permissionFor } from '../../engine/access.ts';
import { NEEDED, UNDO_DAYS, type OperationKind } from '../../engine/undo.ts';

/**
 * The operation link of log rows (issue 36 item 5): a row written by a bulk call or an import is linked to
 * its operation (`operation_records`, migration 0131). Each row answers `operation_id` (null for other rows)
 * and `undoable`: whether `POST v1/operations/<id>/undo` would be tried for this caller now, by the same
 * rules the undo applies (undo.ts): the caller's own operation or an administrator, the permission the
 * operation needed, within UNDO_DAYS, not undone yet. The undo itself decides again (404/409).
 */
export async function operationLinks<R extends Record<string, unknown>>(
  db: Queryable,
  principal: Principal,
  rows: R[],
): Promise<(R & { operation_id: string | null; undoable: boolean })[]> {
  const ids = rows.map((r) => String(r.id)).filter(isIdString);
  const linked = new Map<string, OperationRow>();
  if (ids.length) {
    const { rows: found } = await db.query<OperationRow & { activity_id: string }>(
      `SELECT l."activity_id"::text AS activity_id, o."id"::text AS id, o."kind", o."resource",
              o."actor_id"::text AS actor_id, o."undone_at" IS NULL AND
              o."created_at" > now() - make_interval(days => ${UNDO_DAYS}) AS is_open
         FROM "operation_records" l JOIN "operations" o ON o."id" = l."operation_id"
        WHERE l."activity_id" = ANY($1::bigint[])`,
      [ids],
    );
    for (const row of found) linked.set(row.activity_id, row);
  }
  return rows.map((row) => {
    const op = linked.get(String(row.id));
    return { ...row, operation_id: op?.id ?? null, undoable: op ? mayUndo(principal, op) : false };
  });
}

interface OperationRow {
  id: string;
  kind: OperationKind;
  resource: string;
  actor_id: string | null;
  is_open: boolean;
}

function mayUndo(principal: Principal, op: OperationRow): boolean {
  const resource = resources.find((r) => r.name === op.resource);
  if (!op.is_open || !resource || !can(principal, permissionFor(resource, NEEDED[op.kind]))) return false;
  return op.actor_id === principal.userId || principal.staff?.isAdmin === true;
}
