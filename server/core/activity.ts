import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.ts';
import type { Principal } from './principal.ts';

/** Who did it and from where, for the audit row. */
export interface Actor {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  /** The caller's staff record and permission names, for hooks that enforce who may write what. */
  principal?: Principal;
  /** `<scheme>://<host>` of the request, for links a hook hands out. */
  origin?: string;
}

/** The actor of a signed-in request: the caller's user id, address and user agent. */
export function actorOf(request: FastifyRequest, userId: string): Actor {
  const ua = request.headers['user-agent'];
  return { userId, ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}

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
): Promise<void> {
  await db.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.operatorId,
      row.action,
      row.subjectType,
      row.subjectId,
      row.changes === undefined ? null : JSON.stringify(row.changes),
      row.ip,
      row.userAgent?.slice(0, 500) ?? null,
    ],
  );
}

/** writeActivity for a signed-in actor. */
export function writeActorActivity(
  db: Queryable,
  actor: Actor,
  row: { action: string; subjectType: string; subjectId: string | null; changes?: Record<string, unknown> },
): Promise<void> {
  return writeActivity(db, { ...row, operatorId: actor.userId, ip: actor.ip, userAgent: actor.userAgent });
}
