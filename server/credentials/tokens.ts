import crypto from 'node:crypto';
import { classifyDbError } from '../core/db-errors.ts';
import type { Queryable } from '../db/index.ts';

/** Remember-me tokens live 30 days from sign-in; others 12 hours from their last use. */
export const REMEMBER_TTL_MS = 30 * 24 * 3600 * 1000;
export const SESSION_IDLE_MS = 12 * 3600 * 1000;
/** Sliding expiry is written at most this often per token, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export function sha256(value: string): string {
  // One-shot: a Hash object per call cost about 2 µs more (its construction checks Node's deprecation
  // options), and every signed-in request hashes its token.
  return crypto.hash('sha256', value, 'hex');
}

/** 256 random bits, URL-safe. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export interface IssuedToken {
  accessToken: string;
  expiresAt: Date | null;
}

/**
 * Issues a new opaque bearer token for a user; only its SHA-256 is stored. `expiresAt` is reported as null for
 * sliding (non-remember) tokens because their end moves with use.
 */
export async function issueToken(
  db: Queryable,
  { userId, remember, ip, userAgent }: { userId: string; remember: boolean; ip?: string; userAgent?: string },
): Promise<IssuedToken> {
  const accessToken = randomToken();
  const expiresAt = new Date(Date.now() + (remember ? REMEMBER_TTL_MS : SESSION_IDLE_MS));
  await db.query(
    `INSERT INTO access_tokens (user_id, token_hash, remember, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [userId, sha256(accessToken), remember, expiresAt, ip ?? null, userAgent?.slice(0, 500) ?? null],
  );
  return { accessToken, expiresAt: remember ? expiresAt : null };
}

export interface TokenOwner {
  tokenId: string;
  userId: string;
  /** A personal API token: the permission names it may use and its name; null for a sign-in session. */
  apiToken?: { name: string; scope: readonly string[] } | null;
}

/** A live token's owner, with when it expires and when its use was last written (for caches). */
export interface TokenLookup extends TokenOwner {
  expiresAt: number;
  touchedAt: number;
}

/**
 * Which of these user ids name an enabled account: the users table belongs to the engine, which supplies
 * this (server/engine/accounts.ts) through core/principal.ts `Accounts`.
 */
export type EnabledUsers = (db: Queryable, userIds: readonly string[]) => Promise<Set<string>>;

/** Finds the live token's owner (enabled user, not revoked, not expired) and slides a session token's expiry. */
export async function resolveToken(
  db: Queryable,
  accessToken: string,
  enabledUsers: EnabledUsers,
): Promise<TokenOwner | null> {
  const found = await lookupToken(db, accessToken, enabledUsers);
  return found && { tokenId: found.tokenId, userId: found.userId, apiToken: found.apiToken ?? null };
}

/**
 * resolveToken with the times a cache needs: the token holds until `expiresAt`, and its use need not be
 * written again before `touchedAt + TOUCH_INTERVAL_MS` (see `isTouchDue`). Times in ms since the epoch.
 */
export async function lookupToken(
  db: Queryable,
  accessToken: string,
  enabledUsers: EnabledUsers,
): Promise<TokenLookup | null> {
  if (!accessToken || accessToken.length > 200) return null;
  const { rows } = await db.query<{
    id: string;
    user_id: string;
    remember: boolean;
    last_used_at: Date;
    expires_at: Date;
    name: string | null;
    scope: string[] | null;
  }>(
    `SELECT t.id, t.user_id, t.remember, t.last_used_at, t.expires_at, t.name, t.scope
       FROM access_tokens t
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`,
    [sha256(accessToken)],
  );
  const row = rows[0];
  if (!row || !(await enabledUsers(db, [String(row.user_id)])).has(String(row.user_id))) return null;
  let touchedAt = row.last_used_at.getTime();
  let expiresAt = row.expires_at.getTime();
  if (isTouchDue(touchedAt)) {
    // On a full disk the touch is skipped (tried again on the next request): reads keep working.
    const isTouched = await db
      .query(
        `UPDATE access_tokens SET last_used_at = now(),
           expires_at = CASE WHEN remember THEN expires_at ELSE now() + $2::interval END
         WHERE id = $1`,
        [row.id, `${SESSION_IDLE_MS / 1000} seconds`],
      )
      .then(
        () => true,
        (error: unknown) => {
          if (classifyDbError(error) === 'diskFull') return false;
          throw error;
        },
      );
    if (isTouched) {
      touchedAt = Date.now();
      if (!row.remember) expiresAt = touchedAt + SESSION_IDLE_MS;
    }
  }
  const apiToken = row.scope ? { name: row.name ?? '', scope: row.scope } : null;
  return { tokenId: String(row.id), userId: String(row.user_id), apiToken, expiresAt, touchedAt };
}

/**
 * Which of these token hashes (`sha256` of the token) still name a live token (not revoked, not expired,
 * enabled user), in one query: open event streams are checked this way when tokens or users change.
 */
export async function liveTokenHashes(
  db: Queryable,
  hashes: readonly string[],
  enabledUsers: EnabledUsers,
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const { rows } = await db.query<{ token_hash: string; user_id: string }>(
    `SELECT t.token_hash, t.user_id FROM access_tokens t
      WHERE t.token_hash = ANY($1::text[]) AND t.revoked_at IS NULL AND t.expires_at > now()`,
    [hashes],
  );
  const enabled = await enabledUsers(
    db,
    rows.map((r) => String(r.user_id)),
  );
  return new Set(rows.filter((r) => enabled.has(String(r.user_id))).map((r) => r.token_hash));
}

/** Whether a token last written at `touchedAt` should have its use (and sliding expiry) written again. */
export function isTouchDue(touchedAt: number): boolean {
  return Date.now() - touchedAt > TOUCH_INTERVAL_MS;
}

/** Revokes one token, or every token of a user except `exceptTokenId`. */
export async function revokeTokens(
  db: Queryable,
  target: { tokenId: string } | { userId: string; exceptTokenId?: string },
): Promise<void> {
  if ('tokenId' in target) {
    await db.query('UPDATE access_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
      target.tokenId,
    ]);
    return;
  }
  await db.query(
    `UPDATE access_tokens SET revoked_at = now()
      WHERE user_id = $1 AND revoked_at IS NULL AND ($2::bigint IS NULL OR id <> $2::bigint)`,
    [target.userId, target.exceptTokenId ?? null],
  );
}

/** Deletes expired and revoked tokens; returns how many rows went. */
export async function purgeTokens(db: Queryable): Promise<number> {
  const res = await db.query(
    `DELETE FROM access_tokens WHERE expires_at < now() OR revoked_at < now() - interval '1 day'`,
  );
  return res.rowCount;
}
