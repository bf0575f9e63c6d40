import type { Queryable } from '../../db/index.ts';

/**
 * Who is calling, as the activity log and the token table record it. Operations take this instead of the
 * HTTP request (routes build it with `clientOf(request)` from context.ts).
 */
export interface Client {
  ip: string;
  userAgent: string | undefined;
}

/**
 * Writes one account event to the activity log with the caller's address and user agent. `changes` must never
 * hold a password, code or token; callers pass only names, ids and reasons.
 */
export async function recordActivity(
  db: Queryable,
  {
    client,
    action,
    operatorId,
    subjectId,
    changes,
  }: {
    client: Client;
    action: string;
    operatorId: string | null;
    subjectId: string | null;
    changes?: Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes, ip, user_agent)
     VALUES ($1, $2, 'users', $3, $4, $5, $6)`,
    [
      operatorId,
      action,
      subjectId,
      changes ? JSON.stringify(changes) : null,
      client.ip,
      client.userAgent === undefined ? null : client.userAgent.slice(0, 500),
    ],
  );
}
