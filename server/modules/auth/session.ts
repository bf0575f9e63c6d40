import type { TokenAnswer } from '../../../schemas/auth.ts';
import { verifyPassword } from '../../credentials/password.ts';
import { clearWindow, giveBackHit, hitWindow } from '../../credentials/rate-limit-store.ts';
import { issueToken, revokeTokens } from '../../credentials/tokens.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import { NOW } from '../../engine/system-access.ts';
import { recordActivity, type Client } from './activity.ts';
import { deviceWindowKey, isKnownDevice, type DeviceCookie } from './device.ts';
import { LIMITS, rateLimited } from './limits.ts';
import { finishSignIn, type SignInResult } from './mfa.ts';
import { findUserByIdentifier, updateUser } from './users.ts';

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
  await updateUser(db, userId, { last_login_at: NOW });
  await recordActivity(db, { client, action, operatorId: userId, subjectId: userId, changes });
  return { access_token: token.accessToken, expires_at: token.expiresAt?.toISOString() ?? null };
}

/**
 * `POST login`: signs in with a username, email or phone and a password (then `finishSignIn`: a session, or
 * the second step for a user with a second factor). Throws 429 past the failure windows
 * and 422 `auth.failed` for an unknown account, a wrong password or a disabled account (the same answer for
 * all three); every refusal is in the activity log. `device` is the browser's device cookie (device.ts): on
 * a device that signed in to this account before, the device's own window replaces the account's ceiling.
 */
export async function signInWithPassword(
  db: Queryable,
  {
    identifier,
    password,
    remember,
    client,
    device = null,
  }: {
    identifier: string;
    password: string;
    remember: boolean;
    client: Client;
    device?: DeviceCookie | null;
  },
): Promise<SignInResult> {
  const user = await findUserByIdentifier(db, identifier);
  const attempt = await countPasswordAttempt(db, { user, identifier, client, device });

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

  await passwordAttemptSucceeded(db, attempt);
  // A user with a second factor gets the second step instead of a session (mfa.ts).
  return finishSignIn(db, { userId: user.id, remember, client, action: 'auth.login', changes: { remember } });
}

/** The windows one password check was counted in (from `countPasswordAttempt`). */
export interface PasswordAttempt {
  addressKey: string;
  ceilingKey: string;
}

/**
 * Counts one password check for an account before the password is checked, and throws 429 (with an
 * activity row, `changes.method` added when given) when a window is past its limit. Every route that checks
 * an account's password calls it: sign-in, WeChat linking and the password change.
 *
 * Windows are keyed on the account (its username, email and phone share them), or on the normalised
 * identifier when no account matches, each counted in one atomic statement: 25 parallel wrong passwords
 * get exactly `max` checks. First the account and client address (`loginFailures`); then, on a device that
 * holds this account's device cookie, that device's own window (`loginPerDevice`), else the account's
 * ceiling across all addresses (`loginPerAccount`), so strangers can run up the ceiling but never lock the
 * owner's known devices out.
 */
export async function countPasswordAttempt(
  db: Queryable,
  {
    user,
    identifier = '',
    client,
    device,
    method,
  }: {
    user: { id: string } | null;
    identifier?: string;
    client: Client;
    device: DeviceCookie | null;
    method?: string;
  },
): Promise<PasswordAttempt> {
  const account = user ? `user:${user.id}` : `name:${normaliseIdentifier(identifier)}`;
  const isKnown = user ? await isKnownDevice(db, device, user.id) : false;
  const ceiling = isKnown
    ? { key: deviceWindowKey(account, device!.id), ...LIMITS.loginPerDevice }
    : { key: accountWindowKey(account), ...LIMITS.loginPerAccount };
  const addressKey = `login:fail:${account}|${client.ip}`;
  const { limited, byAddress } = await countAttempt(db, { addressKey, ceiling });
  if (limited) {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: user?.id ?? null,
      changes: {
        ...(method ? { method } : {}),
        reason: byAddress ? 'rate_limited' : isKnown ? 'device_rate_limited' : 'account_rate_limited',
      },
    });
    throw rateLimited(limited.ttl);
  }
  return { addressKey, ceilingKey: ceiling.key };
}

/**
 * Counts one attempt at a secret (a password, a second-factor code): in its window per account and address
 * and, while that is under its limit, in the account's (or a known device's) ceiling. Answers the window that
 * is over its limit, if any (`byAddress`: the per-address one).
 */
export async function countAttempt(
  db: Queryable,
  { addressKey, ceiling }: { addressKey: string; ceiling: { key: string; max: number; timeWindow: number } },
) {
  const perAddress = await hitWindow(db, { key: addressKey, windowMs: LIMITS.loginFailures.timeWindow });
  if (perAddress.current > LIMITS.loginFailures.max) return { limited: perAddress, byAddress: true };
  const perCeiling = await hitWindow(db, { key: ceiling.key, windowMs: ceiling.timeWindow });
  return { limited: perCeiling.current > ceiling.max ? perCeiling : null, byAddress: false };
}

/** A right password gives back its attempt and clears this address's failures. */
export async function passwordAttemptSucceeded(db: Queryable, attempt: PasswordAttempt): Promise<void> {
  await clearWindow(db, attempt.addressKey);
  await giveBackHit(db, attempt.ceilingKey);
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
