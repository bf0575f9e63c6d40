import * as z from 'zod';
import { wireId, wireTime } from '../../../schemas/wire.ts';
import { randomToken, sha256 } from '../../credentials/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser, type Principal } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import type { Queryable } from '../../db/index.ts';
import { recordActivity, type Client } from './activity.ts';
import { clientOf, type AuthScope } from './context.ts';

/** The longest a personal API token may live. */
const MAX_LIFETIME_MS = 366 * 24 * 3600 * 1000;
const PERMISSION_NAME = /^[A-Za-z0-9_.:*-]{1,200}$/;

export const apiTokenSchema = z.object({
  id: wireId,
  name: z.string(),
  permissions: z.array(z.string()),
  expires_at: wireTime,
  last_used_at: wireTime.nullable(),
  created_at: wireTime,
});
type ApiTokenRow = z.infer<typeof apiTokenSchema>;

const createSchema = z.object({
  name: z.string().trim().min(1).max(100),
  permissions: z.array(z.string().regex(PERMISSION_NAME)).max(500),
  expires_at: z.iso.datetime({ offset: true }),
});
const tokenParams = z.object({ id: z.string().regex(/^\d{1,19}$/) });

/** A personal API token cannot manage tokens or sessions: only a signed-in person can. */
function requirePerson(principal: Principal): void {
  if (principal.apiToken) throw AppError.forbidden();
}

/**
 * Creates a personal API token for the caller with a subset of the permission names the caller holds now
 * (an administrator holds every name); answers it once with the secret as `token` (only its SHA-256 is kept).
 */
export async function createApiToken(
  db: Queryable,
  {
    principal,
    name,
    permissions,
    expiresAt,
    client,
  }: { principal: Principal; name: string; permissions: string[]; expiresAt: string; client: Client },
): Promise<ApiTokenRow & { token: string }> {
  const end = Date.parse(expiresAt);
  if (!(end > Date.now()) || end - Date.now() > MAX_LIFETIME_MS)
    throw AppError.validation({ expires_at: ['auth.tokens.expiry_range'] });
  const isAdmin = principal.staff?.isAdmin === true;
  const unheld = permissions.filter((p) => !isAdmin && !principal.permissions.has(p));
  if (!principal.staff || unheld.length > 0)
    throw AppError.validation({ permissions: ['auth.tokens.not_held'] });
  const scope = [...new Set(permissions)];
  const token = randomToken();
  const { rows } = await db.query<{ id: string; created_at: Date; expires_at: Date }>(
    `INSERT INTO access_tokens (user_id, token_hash, remember, expires_at, ip, user_agent, name, scope)
     VALUES ($1, $2, true, $3, $4, $5, $6, $7::text[]) RETURNING id, created_at, expires_at`,
    [
      principal.userId,
      sha256(token),
      new Date(end),
      client.ip,
      client.userAgent?.slice(0, 500) ?? null,
      name,
      scope,
    ],
  );
  const row = rows[0]!;
  await recordActivity(db, {
    client,
    action: 'auth.token_created',
    operatorId: principal.userId,
    subjectId: principal.userId,
    // The list as the pair `[before, after]`: a bare list of two would read as a before/after pair.
    changes: { token_id: String(row.id), name, permissions: [[], scope] },
  });
  return {
    id: String(row.id),
    name,
    permissions: scope,
    expires_at: row.expires_at.toISOString(),
    last_used_at: null,
    created_at: row.created_at.toISOString(),
    token,
  };
}

/** The caller's live personal API tokens, newest first (never the secret). */
export async function listApiTokens(db: Queryable, userId: string): Promise<ApiTokenRow[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    scope: string[];
    expires_at: Date;
    last_used_at: Date;
    created_at: Date;
  }>(
    `SELECT id, name, scope, expires_at, last_used_at, created_at FROM access_tokens
      WHERE user_id = $1 AND scope IS NOT NULL AND revoked_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC, id DESC`,
    [userId],
  );
  return rows.map((row) => ({
    id: String(row.id),
    name: row.name,
    permissions: row.scope,
    expires_at: row.expires_at.toISOString(),
    // A token is created "used" (the column's default): it has not been used until a later use is written.
    last_used_at:
      row.last_used_at.getTime() > row.created_at.getTime() ? row.last_used_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
  }));
}

/** Revokes one of the caller's tokens: 404 when the id names no live token of theirs. */
export async function revokeApiToken(
  db: Queryable,
  { userId, tokenId, client }: { userId: string; tokenId: string; client: Client },
): Promise<void> {
  const { rowCount } = await db.query(
    `UPDATE access_tokens SET revoked_at = now()
      WHERE id = $1 AND user_id = $2 AND scope IS NOT NULL AND revoked_at IS NULL`,
    [tokenId, userId],
  );
  if (rowCount === 0) throw AppError.notFound();
  await recordActivity(db, {
    client,
    action: 'auth.token_revoked',
    operatorId: userId,
    subjectId: userId,
    changes: { token_id: tokenId },
  });
}

/** `GET`/`POST v1/user/tokens`, `DELETE v1/user/tokens/<id>` (issue 31, item 6). */
export function registerApiTokenRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/tokens',
    tags: ['account'],
    summary: "The caller's live personal API tokens (never their secrets)",
    access: requireUser,
    responses: { 200: z.array(apiTokenSchema) },
    handler: async ({ principal }) => {
      requirePerson(principal);
      return ok(await listApiTokens(db, principal.userId));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/tokens',
    tags: ['account'],
    summary:
      'Create a personal API token with a subset of the caller’s permissions; the secret is answered once',
    description:
      'Use it as `Authorization: Bearer <token>` (no XSRF header needed). It holds only the listed ' +
      'permissions its owner still holds, never administrator powers, and is revoked with the owner’s ' +
      'password change or disablement.',
    access: requireUser,
    body: createSchema,
    responses: { 200: apiTokenSchema.extend({ token: z.string() }) },
    handler: async ({ body, principal, request }) => {
      requirePerson(principal);
      return ok(
        await createApiToken(db, {
          principal,
          name: body.name,
          permissions: body.permissions,
          expiresAt: body.expires_at,
          client: clientOf(request),
        }),
      );
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/tokens/:id',
    tags: ['account'],
    summary: 'Revoke one of the caller’s personal API tokens',
    errors: [404],
    access: requireUser,
    params: tokenParams,
    responses: { 200: null },
    handler: async ({ params, principal, request }) => {
      requirePerson(principal);
      await revokeApiToken(db, { userId: principal.userId, tokenId: params.id, client: clientOf(request) });
      return ok(null);
    },
  });
}
