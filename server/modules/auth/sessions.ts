import * as z from 'zod';
import { wireId, wireTime } from '../../../schemas/wire.ts';
import { revokeTokens } from '../../credentials/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { requireUser } from '../../core/principal.ts';
import { permission, route } from '../../core/route.ts';
import type { Queryable } from '../../db/index.ts';
import { recordActivity, type Client } from './activity.ts';
import { clientOf, type AuthScope } from './context.ts';

/** One live sign-in of the caller, as `GET v1/user/sessions` answers it. */
export const sessionSchema = z.object({
  id: wireId,
  created_at: wireTime,
  last_seen_at: wireTime,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionSchema>;

const sessionParams = z.object({ id: z.string().regex(/^\d{1,19}$/) });

/**
 * The live sign-ins (tokens not revoked and not expired) of a user, newest use first; `current` marks the
 * token of this call. `last_seen_at` is written at most once a minute per token (credentials/tokens.ts).
 */
export async function listSessions(
  db: Queryable,
  { userId, currentTokenId }: { userId: string; currentTokenId: string },
): Promise<SessionRow[]> {
  const { rows } = await db.query<{
    id: string;
    created_at: Date;
    last_used_at: Date;
    ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT id, created_at, last_used_at, ip, user_agent FROM access_tokens
      WHERE user_id = $1 AND scope IS NULL AND revoked_at IS NULL AND expires_at > now()
      ORDER BY last_used_at DESC, id DESC`,
    [userId],
  );
  return rows.map((row) => ({
    id: String(row.id),
    created_at: row.created_at.toISOString(),
    last_seen_at: row.last_used_at.toISOString(),
    ip: row.ip,
    user_agent: row.user_agent,
    current: String(row.id) === currentTokenId,
  }));
}

/**
 * Ends one live sign-in of the user: 404 when the id names no live session of theirs (another user's
 * session is not told apart from a missing one). Ending the current one is signing out.
 */
export async function endSession(
  db: Queryable,
  { userId, sessionId, client }: { userId: string; sessionId: string; client: Client },
): Promise<void> {
  const { rowCount } = await db.query(
    `UPDATE access_tokens SET revoked_at = now()
      WHERE id = $1 AND user_id = $2 AND scope IS NULL AND revoked_at IS NULL AND expires_at > now()`,
    [sessionId, userId],
  );
  if (rowCount === 0) throw AppError.notFound();
  await recordActivity(db, {
    client,
    action: 'auth.session_ended',
    operatorId: userId,
    subjectId: userId,
    changes: { session_id: sessionId },
  });
}

/** An administrator ends every sign-in of a user (audited); answers how many ended. */
export async function endAllSessions(
  db: Queryable,
  { userId, operatorId, client }: { userId: string; operatorId: string; client: Client },
): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM access_tokens
      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [userId],
  );
  await revokeTokens(db, { userId });
  const ended = Number(rows[0]?.n ?? 0);
  await recordActivity(db, {
    client,
    action: 'auth.sessions_ended',
    operatorId,
    subjectId: userId,
    changes: { ended },
  });
  return ended;
}

/**
 * `GET v1/user/sessions`, `DELETE v1/user/sessions/<id>` and, for an administrator of accounts,
 * `DELETE v1/user/users/<id>/sessions` (issue 31, item 5).
 */
export function registerSessionRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/sessions',
    tags: ['account'],
    summary: "The caller's live sign-ins (device, address, last seen); `current` is this one",
    access: requireUser,
    responses: { 200: z.array(sessionSchema) },
    handler: async ({ principal }) => {
      if (principal.apiToken) throw AppError.forbidden();
      return ok(await listSessions(db, { userId: principal.userId, currentTokenId: principal.tokenId }));
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/sessions/:id',
    tags: ['account'],
    summary: 'End one of the caller’s sign-ins (its token stops working at once)',
    errors: [404],
    access: requireUser,
    params: sessionParams,
    responses: { 200: null },
    handler: async ({ params, principal, request }) => {
      if (principal.apiToken) throw AppError.forbidden();
      await endSession(db, { userId: principal.userId, sessionId: params.id, client: clientOf(request) });
      return ok(null);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/users/:id/sessions',
    tags: ['people'],
    summary: 'End every sign-in of an account (its tokens stop working at once); answers how many ended',
    access: permission(`${PERMISSION.usersUsers}.update`),
    params: sessionParams,
    responses: { 200: z.object({ ended: z.number().int() }) },
    handler: async ({ params, principal, request }) => {
      const ended = await endAllSessions(db, {
        userId: params.id,
        operatorId: principal.userId,
        client: clientOf(request),
      });
      return ok({ ended });
    },
  });
}
