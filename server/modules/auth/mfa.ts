import { staff as staffResource } from '../../../resources/staff.ts';
import { users as usersResource } from '../../../resources/users.ts';
import type { TokenAnswer } from '../../../schemas/auth.ts';
import type { MfaEnrolmentRequired, MfaMethod, MfaRequired, MfaStatus } from '../../../schemas/mfa.ts';
import { verifyPassword } from '../../credentials/password.ts';
import { clearWindow, giveBackHit } from '../../credentials/rate-limit-store.ts';
import { randomToken, sha256 } from '../../credentials/tokens.ts';
import {
  checkTotp,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  totpProvisioning,
} from '../../credentials/totp.ts';
import { AppError } from '../../core/errors.ts';
import { getSettings } from '../../core/settings.ts';
import type { Principal } from '../../core/principal.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { accounts } from '../../engine/accounts.ts';
import { asSystem } from '../../engine/system-access.ts';
import { recordActivity, type Client } from './activity.ts';
import { deviceWindowKey, isKnownDevice, type DeviceCookie } from './device.ts';
import { LIMITS, rateLimited } from './limits.ts';
import { countAttempt, countPasswordAttempt, openSession, passwordAttemptSucceeded } from './session.ts';
import type { UserRow } from './users.ts';

/**
 * Second factors (issue 31): TOTP with recovery codes and the two-step sign-in. Fastify-free operations, as
 * session.ts. Every first factor (password, and later passkeys and OpenID Connect) ends in `finishSignIn`.
 */

/** An `mfa_token` lives five minutes and serves one sign-in. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;

/** An enrolment token (login.require_2fa) lives 15 minutes: time to install an authenticator app. */
export const ENROLMENT_TOKEN_TTL_MS = 15 * 60_000;

/** What a first factor ends in: a session, the second step, or enrolment only. `userId`: for the device cookie. */
export type SignInResult =
  | { isSignedIn: true; userId: string; answer: TokenAnswer }
  | { isSignedIn: false; userId: string; answer: MfaRequired | MfaEnrolmentRequired };

/** Whether `login.require_2fa` covers the user: `admins` (is_admin staff) or `staff` (any enabled staff). */
export async function isCoveredByPolicy(db: Queryable, userId: string): Promise<boolean> {
  const { require_2fa: policy } = await getSettings(db, 'login');
  if (policy === 'none') return false;
  const member = await asSystem(db).find<{ is_admin: number }>(staffResource, {
    where: { user_id: userId, state: true },
    columns: ['is_admin'],
  });
  return Boolean(member) && (policy === 'staff' || Number(member!.is_admin) === 1);
}

/**
 * The user of a live enrolment token (the Bearer of a covered user who has no factor yet), or null. The
 * TOTP enrolment and passkey registration routes accept it in place of an access token; nothing else does.
 */
export async function enrolmentUser(
  db: Queryable,
  bearer: string,
): Promise<{ userId: string; tokenId: string } | null> {
  if (!bearer || bearer.length > 200) return null;
  const { rows } = await db.query<{ id: string; user_id: string }>(
    `SELECT t.id, t.user_id FROM mfa_tokens t
      WHERE t.token_hash = $1 AND t.purpose = 'enrol' AND t.used_at IS NULL AND t.expires_at > now()`,
    [sha256(bearer)],
  );
  const row = rows[0];
  if (!row || !(await accounts.enabledUsers(db, [String(row.user_id)])).size) return null;
  return { userId: row.user_id, tokenId: row.id };
}

/**
 * After an enrolment by enrolment token (a TOTP confirmed or a passkey registered): spends it and opens the
 * session the sign-in was waiting for. Null when the token was already spent.
 */
export async function finishEnrolment(
  db: Queryable,
  {
    tokenId,
    userId,
    client,
    method,
  }: { tokenId: string; userId: string; client: Client; method: 'totp' | 'passkey' },
): Promise<TokenAnswer | null> {
  const { rows } = await db.query<{ remember: boolean }>(
    `UPDATE mfa_tokens SET used_at = now() WHERE id = $1 AND purpose = 'enrol' AND used_at IS NULL
     RETURNING remember`,
    [tokenId],
  );
  if (!rows[0]) return null;
  return openSession(db, {
    userId,
    remember: rows[0].remember,
    client,
    action: 'auth.login',
    changes: { remember: rows[0].remember, mfa: `${method}_enrolled` },
  });
}

/**
 * Call after a first factor succeeded. A user with a second factor gets `{ mfa_required, mfa_token, methods }`
 * (no session yet); anyone else a session as `openSession` opens it (`action`, `changes` name the activity).
 * Example: `const { answer } = await finishSignIn(db, { userId, remember, client, action: 'auth.login', changes: {} })`.
 */
export async function finishSignIn(
  db: Queryable,
  input: {
    userId: string;
    remember: boolean;
    client: Client;
    action: string;
    changes: Record<string, unknown>;
  },
): Promise<SignInResult> {
  const { userId, remember, client } = input;
  const methods = await methodsOf(db, userId);
  if (methods.length === 0) {
    if (await isCoveredByPolicy(db, userId)) {
      // The policy wants a second factor this user lacks: a token good for the enrolment calls alone.
      const enrolmentToken = randomToken();
      await db.query(
        `INSERT INTO mfa_tokens (token_hash, user_id, remember, purpose, expires_at)
         VALUES ($1, $2, $3, 'enrol', now() + $4::double precision * interval '1 millisecond')`,
        [sha256(enrolmentToken), userId, remember, ENROLMENT_TOKEN_TTL_MS],
      );
      await recordActivity(db, {
        client,
        action: 'auth.mfa_enrolment_required',
        operatorId: null,
        subjectId: userId,
        changes: { first: input.action },
      });
      return {
        isSignedIn: false,
        userId,
        answer: {
          mfa_enrolment_required: true,
          enrolment_token: enrolmentToken,
          methods: ['totp', 'passkey'],
        },
      };
    }
    return { isSignedIn: true, userId, answer: await openSession(db, input) };
  }
  const mfaToken = randomToken();
  await db.query(
    `INSERT INTO mfa_tokens (token_hash, user_id, remember, expires_at)
     VALUES ($1, $2, $3, now() + $4::double precision * interval '1 millisecond')`,
    [sha256(mfaToken), userId, remember, MFA_TOKEN_TTL_MS],
  );
  await recordActivity(db, {
    client,
    action: 'auth.mfa_challenge',
    operatorId: null,
    subjectId: userId,
    changes: { first: input.action, ...input.changes },
  });
  return { isSignedIn: false, userId, answer: { mfa_required: true, mfa_token: mfaToken, methods } };
}

/** The second factors a user can finish a sign-in with (empty: none). */
export async function methodsOf(db: Queryable, userId: string): Promise<MfaMethod[]> {
  const status = await mfaStatus(db, userId);
  const methods: MfaMethod[] = [];
  if (status.totp) methods.push('totp');
  if (status.totp && status.recovery_codes_left > 0) methods.push('recovery');
  if (status.passkeys > 0) methods.push('passkey');
  return methods;
}

/** `GET v1/user/2fa`: which factors the user has. */
export async function mfaStatus(db: Queryable, userId: string): Promise<MfaStatus> {
  const { rows } = await db.query<{ totp: boolean; codes: number; passkeys: number }>(
    `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
            (SELECT count(*)::int FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS codes,
            (SELECT count(*)::int FROM user_passkeys WHERE user_id = $1) AS passkeys`,
    [userId],
  );
  const row = rows[0]!;
  return { totp: row.totp, recovery_codes_left: Number(row.codes), passkeys: Number(row.passkeys) };
}

/**
 * `POST v1/user/2fa/totp`: a new secret, pending until confirmed with a code (a pending one is replaced).
 * 409 when TOTP is already on: turning it off first needs the password.
 */
export async function startTotp(
  db: Queryable,
  { user }: { user: UserRow },
): Promise<{ secret: string; otpauth_url: string; qr_svg: string }> {
  const status = await mfaStatus(db, user.id);
  if (status.totp) throw new AppError(409, 'auth.mfa.already_on');
  const secret = newTotpSecret();
  await db.query(
    `INSERT INTO user_totp (user_id, secret) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = NULL, created_at = now()`,
    [user.id, secret],
  );
  const site = await getSettings(db, 'site');
  const { otpauthUrl, qrSvg } = await totpProvisioning({
    secret,
    issuer: site.site_name,
    label: user.email ?? user.username,
  });
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/**
 * `POST v1/user/2fa/totp/confirm`: the first code from the app turns TOTP on and answers ten new recovery
 * codes (only their hashes are kept). Codes are counted like passwords (`countCodeAttempt`).
 */
export async function confirmTotp(
  db: Db,
  {
    userId,
    code,
    client,
    device,
  }: { userId: string; code: string; client: Client; device: DeviceCookie | null },
): Promise<string[]> {
  const attempt = await countCodeAttempt(db, { userId, client, device, method: 'totp_confirm' });
  const { rows } = await db.query<{ secret: string }>(
    'SELECT secret FROM user_totp WHERE user_id = $1 AND confirmed_at IS NULL',
    [userId],
  );
  const pending = rows[0];
  if (!pending) {
    throw AppError.validation({
      code: [(await mfaStatus(db, userId)).totp ? 'auth.mfa.already_on' : 'auth.mfa.not_started'],
    });
  }
  const step = await checkTotp({ secret: pending.secret, code, afterStep: null });
  if (step === null) throw AppError.validation({ code: ['auth.mfa.code_invalid'] });
  await codeAttemptSucceeded(db, attempt);
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    const confirmed = await tx.query(
      `UPDATE user_totp SET confirmed_at = now(), last_step = $2
        WHERE user_id = $1 AND confirmed_at IS NULL AND secret = $3`,
      [userId, step, pending.secret],
    );
    if (confirmed.rowCount === 0) throw AppError.validation({ code: ['auth.mfa.not_started'] });
    await tx.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
    for (const recoveryCode of codes) {
      await tx.query('INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, $2)', [
        userId,
        hashRecoveryCode(recoveryCode),
      ]);
    }
    await recordActivity(tx, { client, action: 'auth.totp_enabled', operatorId: userId, subjectId: userId });
  });
  return codes;
}

/** `DELETE v1/user/2fa/totp`: needs the account password (counted with the sign-ins); drops the recovery codes. */
export async function disableTotp(
  db: Db,
  {
    user,
    password,
    client,
    device,
  }: { user: UserRow; password: string; client: Client; device: DeviceCookie | null },
): Promise<void> {
  const attempt = await countPasswordAttempt(db, { user, client, device, method: 'totp_disable' });
  if (!(await verifyPassword(user.password_hash, password))) {
    throw AppError.validation({ password: ['auth.old_password_incorrect'] });
  }
  await passwordAttemptSucceeded(db, attempt);
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM user_totp WHERE user_id = $1', [user.id]);
    await tx.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [user.id]);
    await recordActivity(tx, {
      client,
      action: 'auth.totp_disabled',
      operatorId: user.id,
      subjectId: user.id,
    });
  });
}

/**
 * `POST v1/user/login/2fa`: finishes a two-step sign-in with a TOTP code or a recovery code. An unknown,
 * expired or used `mfa_token` is a 422 on `mfa_token` after the same work as a wrong code; a wrong code a
 * 422 on the field typed; both counted like passwords. The token is spent only by a success.
 */
export async function signInSecondStep(
  db: Db,
  {
    mfaToken,
    code,
    recoveryCode,
    client,
    device,
  }: {
    mfaToken: string;
    code?: string | undefined;
    recoveryCode?: string | undefined;
    client: Client;
    device: DeviceCookie | null;
  },
): Promise<TokenAnswer & { userId: string }> {
  const pending = await findPendingMfa(db, mfaToken);
  if (!pending) {
    await checkTotp({ secret: null, code: code ?? '000000', afterStep: null });
    throw AppError.validation({ mfa_token: ['auth.mfa.expired'] });
  }
  const userId = pending.user_id;
  const attempt = await countCodeAttempt(db, { userId, client, device, method: code ? 'totp' : 'recovery' });
  const method =
    code !== undefined
      ? await useTotpCode(db, { userId, code })
      : await useRecoveryCode(db, { userId, recoveryCode: recoveryCode ?? '' });
  if (!method) {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: userId,
      changes: { reason: code !== undefined ? 'wrong_totp' : 'wrong_recovery_code' },
    });
    throw AppError.validation(
      code !== undefined
        ? { code: ['auth.mfa.code_invalid'] }
        : { recovery_code: ['auth.mfa.recovery_invalid'] },
    );
  }
  await spendMfa(db, pending.id);
  await codeAttemptSucceeded(db, attempt);
  const token = await openSession(db, {
    userId,
    remember: pending.remember,
    client,
    action: 'auth.login',
    changes: { remember: pending.remember, mfa: method },
  });
  return { ...token, userId };
}

/**
 * An administrator resets another user's second factors (`DELETE v1/user/users/<id>/2fa`): the authenticator,
 * its recovery codes, the passkeys and pending two-step tokens go; audited as `auth.mfa_reset`. Only an
 * administrator may reset an administrator's. Answers the user's username and email for the notice.
 */
export async function resetFactors(
  db: Db,
  { userId, actor, client }: { userId: string; actor: Principal; client: Client },
): Promise<{ username: string; email: string | null }> {
  const system = asSystem(db);
  const target = await system.find<{ username: string; email: string | null }>(usersResource, {
    where: { id: userId },
    columns: ['username', 'email'],
  });
  if (!target) throw AppError.notFound();
  const member = await system.find<{ is_admin: number }>(staffResource, {
    where: { user_id: userId },
    columns: ['is_admin'],
  });
  if (Number(member?.is_admin) === 1 && !actor.staff?.isAdmin) throw AppError.forbidden();
  await db.transaction(async (tx) => {
    const before = await mfaStatus(tx, userId);
    await tx.query('DELETE FROM user_totp WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM user_passkeys WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM mfa_tokens WHERE user_id = $1 AND used_at IS NULL', [userId]);
    await recordActivity(tx, {
      client,
      action: 'auth.mfa_reset',
      operatorId: actor.userId,
      subjectId: userId,
      changes: { totp: before.totp, passkeys: before.passkeys },
    });
  });
  return { username: target.username, email: target.email };
}

/** A live, unused `mfa_token` of an enabled user, or null. */
export async function findPendingMfa(
  db: Queryable,
  mfaToken: string,
): Promise<{ id: string; user_id: string; remember: boolean } | null> {
  const { rows } = await db.query<{ id: string; user_id: string; remember: boolean }>(
    `SELECT t.id, t.user_id, t.remember FROM mfa_tokens t
      WHERE t.token_hash = $1 AND t.purpose = 'challenge' AND t.used_at IS NULL AND t.expires_at > now()`,
    [sha256(mfaToken)],
  );
  const row = rows[0];
  if (!row || !(await accounts.enabledUsers(db, [String(row.user_id)])).size) return null;
  return row;
}

/** Spends an `mfa_token` (its one sign-in); a 422 when another request spent it first or it just expired. */
export async function spendMfa(db: Queryable, id: string): Promise<void> {
  const spent = await db.query(
    'UPDATE mfa_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now()',
    [id],
  );
  if (spent.rowCount === 0) throw AppError.validation({ mfa_token: ['auth.mfa.expired'] });
}

/** Accepts a TOTP code once: the step it belongs to must be after the last one accepted (one statement). */
async function useTotpCode(
  db: Queryable,
  { userId, code }: { userId: string; code: string },
): Promise<'totp' | null> {
  const { rows } = await db.query<{ secret: string; last_step: string | null }>(
    'SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL',
    [userId],
  );
  const row = rows[0];
  const lastStep = row?.last_step == null ? null : Number(row.last_step);
  const step = await checkTotp({ secret: row?.secret ?? null, code, afterStep: lastStep });
  if (step === null) return null;
  // Two requests with the same code race here: only the one that moves last_step forward wins.
  const moved = await db.query(
    `UPDATE user_totp SET last_step = $2
      WHERE user_id = $1 AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)`,
    [userId, step],
  );
  return moved.rowCount === 1 ? 'totp' : null;
}

/** Spends one unused recovery code. */
async function useRecoveryCode(
  db: Queryable,
  { userId, recoveryCode }: { userId: string; recoveryCode: string },
): Promise<'recovery' | null> {
  const used = await db.query(
    `UPDATE user_recovery_codes SET used_at = now()
      WHERE id = (SELECT id FROM user_recovery_codes
                   WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1)
        AND used_at IS NULL`,
    [userId, hashRecoveryCode(recoveryCode)],
  );
  return used.rowCount === 1 ? 'recovery' : null;
}

/** The windows one code check was counted in. */
interface CodeAttempt {
  addressKey: string;
  ceilingKey: string;
}

/**
 * Counts one second-factor code check before it is made, in windows of their own shaped like the password
 * windows (session.ts `countPasswordAttempt`): per account and address, then per known device or the
 * account's ceiling. Own windows, because a right password clears the password windows of its address.
 */
async function countCodeAttempt(
  db: Queryable,
  {
    userId,
    client,
    device,
    method,
  }: { userId: string; client: Client; device: DeviceCookie | null; method: string },
): Promise<CodeAttempt> {
  const account = `user:${userId}`;
  const isKnown = await isKnownDevice(db, device, userId);
  const ceiling = isKnown
    ? { key: `mfa:${deviceWindowKey(account, device!.id)}`, ...LIMITS.loginPerDevice }
    : { key: `mfa:account:${account}`, ...LIMITS.loginPerAccount };
  const addressKey = `mfa:fail:${account}|${client.ip}`;
  const { limited, byAddress } = await countAttempt(db, { addressKey, ceiling });
  if (limited) {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: userId,
      changes: { method, reason: byAddress ? 'rate_limited' : 'account_rate_limited' },
    });
    throw rateLimited(limited.ttl);
  }
  return { addressKey, ceilingKey: ceiling.key };
}

async function codeAttemptSucceeded(db: Queryable, attempt: CodeAttempt): Promise<void> {
  await clearWindow(db, attempt.addressKey);
  await giveBackHit(db, attempt.ceilingKey);
}
