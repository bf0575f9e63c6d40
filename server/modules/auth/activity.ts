import { writeActivity } from '../../engine/activity-log.ts';
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
  await writeActivity(db, {
    action,
    subjectType: 'users',
    subjectId,
    ...(changes ? { changes } : {}),
    operatorId,
    ip: client.ip,
    userAgent: client.userAgent,
  });
}
