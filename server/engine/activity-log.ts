import { activities } from '../../resources/activities.ts';
import type { Actor } from '../core/activity.ts';
import type { Queryable } from '../db/index.ts';
import { asSystem } from './system-access.ts';

/**
 * Writes one activity_logs row; call it inside the write's transaction. `operatorId` is null for an
 * anonymous event (a failed sign-in). The user agent is kept to 500 characters like every audit row
 * (activity_logs.user_agent is checked <= 1000); `changes` omitted is NULL.
 */
export async function writeActivity(
  db: Queryable,
  row: {
    action: string;
    subjectType: string;
    subjectId: string | null;
    changes?: Record<string, unknown>;
    operatorId: string | null;
    ip: string | null;
    userAgent: string | null | undefined;
  },
): Promise<string> {
  const { id } = await asSystem(db).insert(activities, {
    operator_id: row.operatorId,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    changes: row.changes === undefined ? null : JSON.stringify(row.changes),
    ip: row.ip,
    user_agent: row.userAgent?.slice(0, 500) ?? null,
  });
  return String(id);
}

/**
 * writeActivity for a signed-in actor; a personal API token's rows carry `changes.via_token` `{ id, name }`,
 * and the rows of a bulk call or import `changes.operation_id`, each linked to its operation (undo.ts).
 */
export async function writeActorActivity(
  db: Queryable,
  actor: Actor,
  row: { action: string; subjectType: string; subjectId: string | null; changes?: Record<string, unknown> },
): Promise<void> {
  // A personal API token's writes say which token acted (issue 31, item 6).
  const token = actor.principal?.apiToken;
  let changes = token ? { ...row.changes, via_token: { id: token.id, name: token.name } } : row.changes;
  if (actor.operationId) changes = { ...changes, operation_id: actor.operationId };
  const id = await writeActivity(db, {
    ...row,
    ...(changes ? { changes } : {}),
    operatorId: actor.userId,
    ip: actor.ip,
    userAgent: actor.userAgent,
  });
  if (actor.operationId && row.subjectId !== null)
    await db.query(
      `INSERT INTO "operation_records" ("operation_id", "activity_id", "subject_type", "subject_id", "action")
       VALUES ($1, $2, $3, $4, $5)`,
      [actor.operationId, id, row.subjectType, row.subjectId, row.action],
    );
}
