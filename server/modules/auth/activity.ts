import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/index.ts';

/**
 * Writes one account event to the activity log with the caller's address and user agent. `changes` must never
 * hold a password, code or token; callers pass only names, ids and reasons.
 */
export async function recordActivity(
  db: Queryable,
  {
    request,
    action,
    operatorId,
    subjectId,
    changes,
  }: {
    request: FastifyRequest;
    action: string;
    operatorId: string | null;
    subjectId: string | null;
    changes?: Record<string, unknown>;
  },
): Promise<void> {
  const userAgent = request.headers['user-agent'];
  await db.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes, ip, user_agent)
     VALUES ($1, $2, 'users', $3, $4, $5, $6)`,
    [
      operatorId,
      action,
      subjectId,
      changes ? JSON.stringify(changes) : null,
      request.ip,
      typeof userAgent === 'string' ? userAgent.slice(0, 500) : null,
    ],
  );
}
