import type { TokenAnswer } from '../../../schemas/auth.ts';
import { verifyPassword } from '../../credentials/password.ts';
import { clearWindow, giveBackHit, hitWindow } from '../../credentials/rate-limit-store.ts';
import { issueToken, revokeTokens } from '../../credentials/tokens.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import { recordActivity, type Client } from './activity.ts';
import { LIMITS, rateLimited } from './limits.ts';
import { findUserByIdentifier } from './users.ts';

/**
 * The account operations behind the sign-in routes: Fastify-free, they take data and a `Client` and return
 * the answer or throw AppError (server/core/errors.ts). Example:
 * `const token = await signInWithPassword(db, { identifier: 'admin', password, remember: false, client })`.
 */

/**
 * Opens a session for a user who has proved who they are (password, registration, WeChat): a new token
 * (remember = 30 days, otherwise 12 idle hours), `last_login_at`, and the activity row `action` with `changes`.
 */
export async function openSession(
  db: Queryable,
  {
    userId,
    remember,
    client,
    action,
    changes,
  }: { userId: string; remember: boolean; client: Client; action: string; changes: Record<string, unknown> },
): Promise<TokenAnswer> {
  const token = await issueToken(db, { userId, remember, ip: client.ip, userAgent: client.userAgent });
  await db.query('UPDATE users SET last_login_at = now() WHERE id = $1', [userId]);
  await recordActivity(db, { client, action, operatorId: userId, subjectId: userId, changes });
  return { access_token: token.accessToken, expires_at: token.expiresAt?.toISOString() ?? null };
}

/**
 * `POST login`: signs in with a username, email or phone and a password. Throws 429 past the failure windows
 * and 422 `auth.failed` for an unknown account, a wrong password or a disabled account (the same answer for
 * all three); every refusal is in the activity log.
 */
export async function signInWithPassword(
  db: Queryable,
  {
    identifier,
    password,
    remember,
    client,
  }: { identifier: string; password: string; remember: boolean; client: Client },
): Promise<TokenAnswer> {
  const user = await findUserByIdentifier(db, identifier);
  // Windows are keyed on the account (its username, email and phone share them), or on the normalised
  // identifier when no account matches, and counted *before* the password is checked, in one atomic
  // statement each: 25 parallel wrong passwords get exactly `max` checks.
  const account = user ? `user:${user.id}` : `name:${normaliseIdentifier(identifier)}`;
  const windows = [
    { key: `login:fail:${account}|${client.ip}`, windowMs: LIMITS.loginFailures.timeWindow },
    { key: accountWindowKey(account), windowMs: LIMITS.loginPerAccount.timeWindow },
  ] as const;
  const perAddress = await hitWindow(db, windows[0]);
  const perAccount = perAddress.current <= LIMITS.loginFailures.max ? await hitWindow(db, windows[1]) : null;
  const limited =
    perAddress.current > LIMITS.loginFailures.max
      ? perAddress
      : perAccount && perAccount.current > LIMITS.loginPerAccount.max
        ? perAccount
        : null;
  if (limited) {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: user?.id ?? null,
      changes: { reason: perAccount ? 'account_rate_limited' : 'rate_limited' },
    });
    throw rateLimited(limited.ttl);
  }

  // Always hash: an unknown user costs the same argon2 work as a known one (verifyPassword hashes a dummy).
  const isPasswordRight = await verifyPassword(user?.password_hash, password);
  if (!user || !isPasswordRight || !user.state) {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: user?.id ?? null,
      // The typed identifier is not stored for unknown accounts: people paste passwords into it.
      changes: { reason: !user ? 'unknown_user' : !isPasswordRight ? 'wrong_password' : 'disabled' },
    });
    throw new AppError(422, 'auth.failed', { fields: { username: ['auth.failed'] } });
  }

  // A success gives back its attempt and clears this address's failures.
  await clearWindow(db, windows[0].key);
  await giveBackHit(db, windows[1].key);
  return openSession(db, { userId: user.id, remember, client, action: 'auth.login', changes: { remember } });
}

/** `POST logout`: revokes the calling token. */
export async function signOut(
  db: Queryable,
  { userId, tokenId, client }: { userId: string; tokenId: string; client: Client },
): Promise<void> {
  await revokeTokens(db, { tokenId });
  await recordActivity(db, { client, action: 'auth.logout', operatorId: userId, subjectId: userId });
}

/** What a sign-in window is keyed on when no account matches: the identifier trimmed and lower-cased. */
export function normaliseIdentifier(identifier: string): string {
  return identifier.trim().normalize('NFKC').toLowerCase();
}

/** The key of an account's window across all addresses (`user:<id>` or `name:<identifier>`). */
export function accountWindowKey(account: string): string {
  return `login:account:${account}`;
}
