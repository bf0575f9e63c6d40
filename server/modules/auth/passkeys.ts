import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { TokenAnswer } from '../../../schemas/auth.ts';
import type { Passkey } from '../../../schemas/mfa.ts';
import { randomToken, sha256 } from '../../credentials/tokens.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import { accounts } from '../../engine/accounts.ts';
import { recordActivity, type Client } from './activity.ts';
import { findPendingMfa, spendMfa } from './mfa.ts';
import { openSession } from './session.ts';
import type { UserRow } from './users.ts';

/** @simplewebauthn/server is imported on a passkey's first use, not when the server starts (issue 37 item 3). */
const webauthn = () => import('@simplewebauthn/server');
/**
 * Passkeys (issue 31, item 2) through @simplewebauthn/server: register several, name and delete them, sign
 * in with one as the first factor (user verification required: the passkey is both factors) or as the
 * second step of a password sign-in. Example: `const options = await passkeyRegistrationOptions(db, { user, rp })`.
 */

/** Who the browser talks to: the site's name, its host (the RP ID) and its origin. */
export interface RelyingParty {
  name: string;
  id: string;
  origin: string;
}

const CHALLENGE_TTL_MS = 5 * 60_000;

/** `POST v1/user/passkeys/options`: options for `navigator.credentials.create` (the user's passkeys excluded). */
export async function passkeyRegistrationOptions(
  db: Queryable,
  { user, rp }: { user: UserRow; rp: RelyingParty },
): Promise<Record<string, unknown> & { challenge: string }> {
  const existing = await credentialsOf(db, user.id);
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.name ?? user.username,
    userID: new TextEncoder().encode(`user:${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: 'register', userId: user.id });
  return options as unknown as Record<string, unknown> & { challenge: string };
}

/** `POST v1/user/passkeys`: checks the browser's answer to the options and keeps the new passkey. */
export async function registerPasskey(
  db: Queryable,
  {
    userId,
    name,
    response,
    rp,
    client,
  }: { userId: string; name: string; response: unknown; rp: RelyingParty; client: Client },
): Promise<Passkey> {
  const json = response as RegistrationResponseJSON;
  const challenge = await takeChallenge(db, { response: json, purpose: 'register', userId });
  const result = await (
    await webauthn()
  )
    .verifyRegistrationResponse({
      response: json,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    })
    .catch(() => null);
  if (!result?.verified) throw AppError.validation({ response: ['auth.passkey.invalid'] });
  const { credential } = result.registrationInfo;
  const { rows } = await db.query<PasskeyRow>(
    `INSERT INTO user_passkeys (user_id, credential_id, public_key, counter, transports, name)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING
     RETURNING id, name, created_at, last_used_at`,
    [
      userId,
      credential.id,
      Buffer.from(credential.publicKey).toString('base64url'),
      credential.counter,
      JSON.stringify(credential.transports ?? []),
      name,
    ],
  );
  const row = rows[0];
  if (!row) throw AppError.validation({ response: ['auth.passkey.invalid'] });
  await recordActivity(db, {
    client,
    action: 'auth.passkey_added',
    operatorId: userId,
    subjectId: userId,
    changes: { passkey_id: row.id, name },
  });
  return present(row);
}

/** `GET v1/user/passkeys`: the caller's passkeys, oldest first. */
export async function listPasskeys(db: Queryable, userId: string): Promise<Passkey[]> {
  const { rows } = await db.query<PasskeyRow>(
    'SELECT id, name, created_at, last_used_at FROM user_passkeys WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return rows.map(present);
}

/** `PATCH v1/user/passkeys/<id>`: renames one of the caller's passkeys (another's is a 404). */
export async function renamePasskey(
  db: Queryable,
  { userId, id, name }: { userId: string; id: string; name: string },
): Promise<Passkey> {
  const { rows } = await db.query<PasskeyRow>(
    `UPDATE user_passkeys SET name = $3 WHERE id = $1 AND user_id = $2
     RETURNING id, name, created_at, last_used_at`,
    [id, userId, name],
  );
  if (!rows[0]) throw AppError.notFound();
  return present(rows[0]);
}

/** `DELETE v1/user/passkeys/<id>`. */
export async function deletePasskey(
  db: Queryable,
  { userId, id, client }: { userId: string; id: string; client: Client },
): Promise<void> {
  const res = await db.query('DELETE FROM user_passkeys WHERE id = $1 AND user_id = $2', [id, userId]);
  if (res.rowCount === 0) throw AppError.notFound();
  await recordActivity(db, {
    client,
    action: 'auth.passkey_deleted',
    operatorId: userId,
    subjectId: userId,
    changes: { passkey_id: id },
  });
}

/**
 * `POST v1/user/login/passkey/options`: options for `navigator.credentials.get`. Without an mfa token any
 * passkey of the site may answer (discoverable credentials: no account is named, so nothing is revealed);
 * with one, the passkeys of that token's user. An unknown mfa token gets options too (nothing told apart).
 */
export async function passkeyLoginOptions(
  db: Queryable,
  { mfaToken, rp }: { mfaToken?: string | undefined; rp: RelyingParty },
): Promise<Record<string, unknown> & { challenge: string }> {
  const pending = mfaToken ? await findPendingMfa(db, mfaToken) : null;
  const allow = pending ? await credentialsOf(db, pending.user_id) : [];
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: mfaToken ? 'preferred' : 'required',
    ...(allow.length ? { allowCredentials: allow.map((c) => ({ id: c.credential_id })) } : {}),
  });
  await storeChallenge(db, {
    challenge: options.challenge,
    purpose: 'login',
    userId: pending?.user_id ?? null,
  });
  return options as unknown as Record<string, unknown> & { challenge: string };
}

/**
 * `POST v1/user/login/passkey`: signs in with a passkey. Alone, the passkey must have verified the user (PIN,
 * biometrics) and is both factors; with the first step's `mfa_token` it is the second factor of that user.
 * Every refusal is the same 422 on `response` (unknown passkey, wrong signature, another user's passkey).
 */
export async function signInWithPasskey(
  db: Queryable,
  {
    response,
    mfaToken,
    remember,
    rp,
    client,
  }: {
    response: unknown;
    mfaToken?: string | undefined;
    remember: boolean;
    rp: RelyingParty;
    client: Client;
  },
): Promise<TokenAnswer & { userId: string }> {
  const json = response as AuthenticationResponseJSON;
  const pending = mfaToken ? await findPendingMfa(db, mfaToken) : null;
  if (mfaToken && !pending) throw AppError.validation({ mfa_token: ['auth.mfa.expired'] });
  const challenge = await takeChallenge(db, {
    response: json,
    purpose: 'login',
    userId: pending?.user_id ?? null,
  });
  const { rows } = await db.query<StoredCredential & { user_id: string }>(
    `SELECT p.id, p.user_id, p.credential_id, p.public_key, p.counter, p.transports
       FROM user_passkeys p WHERE p.credential_id = $1`,
    [String(json.id)],
  );
  const found = rows[0];
  const stored = found
    ? { ...found, state: (await accounts.enabledUsers(db, [String(found.user_id)])).size > 0 }
    : undefined;
  const refuse = async (reason: string) => {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: stored?.user_id ?? null,
      changes: { method: 'passkey', reason },
    });
    return AppError.validation({ response: ['auth.passkey.invalid'] });
  };
  if (!stored || !stored.state || (pending && pending.user_id !== stored.user_id))
    throw await refuse('unknown_passkey');
  const result = await (
    await webauthn()
  )
    .verifyAuthenticationResponse({
      response: json,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: !pending,
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: Number(stored.counter),
        transports: JSON.parse(stored.transports) as never,
      },
    })
    .catch(() => null);
  if (!result?.verified) throw await refuse('wrong_signature');
  // A counter that does not move forward (when the authenticator keeps one) is a cloned key: refused.
  const moved = await db.query(
    `UPDATE user_passkeys SET counter = $2, last_used_at = now()
      WHERE id = $1 AND (counter = 0 AND $2 = 0 OR counter < $2)`,
    [stored.id, result.authenticationInfo.newCounter],
  );
  if (moved.rowCount === 0) throw await refuse('counter');
  if (pending) await spendMfa(db, pending.id);
  const token = await openSession(db, {
    userId: stored.user_id,
    remember: pending ? pending.remember : remember,
    client,
    action: 'auth.login',
    changes: pending ? { remember: pending.remember, mfa: 'passkey' } : { remember, method: 'passkey' },
  });
  return { ...token, userId: stored.user_id };
}

interface PasskeyRow {
  id: string;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

interface StoredCredential {
  id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string;
}

function present(row: PasskeyRow): Passkey {
  const iso = (v: Date | string) => new Date(v).toISOString();
  return {
    id: String(row.id),
    name: row.name,
    created_at: iso(row.created_at),
    last_used_at: row.last_used_at ? iso(row.last_used_at) : null,
  };
}

async function credentialsOf(db: Queryable, userId: string): Promise<{ credential_id: string }[]> {
  const { rows } = await db.query<{ credential_id: string }>(
    'SELECT credential_id FROM user_passkeys WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return rows;
}

async function storeChallenge(
  db: Queryable,
  { challenge, purpose, userId }: { challenge: string; purpose: 'register' | 'login'; userId: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO webauthn_challenges (challenge_hash, purpose, user_id, expires_at)
     VALUES ($1, $2, $3, now() + $4::double precision * interval '1 millisecond')`,
    [sha256(challenge), purpose, userId, CHALLENGE_TTL_MS],
  );
  // Old challenges go with the same statement's neighbours: nothing else reads them once expired.
  await db.query(`DELETE FROM webauthn_challenges WHERE expires_at < now() - interval '1 hour'`);
}

/**
 * Spends the challenge the browser signed (read from its clientDataJSON): one use, five minutes, issued for
 * this purpose and user. Anything else is the 422 every refusal gets.
 */
async function takeChallenge(
  db: Queryable,
  {
    response,
    purpose,
    userId,
  }: {
    response: { response: { clientDataJSON: string } };
    purpose: 'register' | 'login';
    userId: string | null;
  },
): Promise<string> {
  let challenge = '';
  try {
    const client = JSON.parse(
      Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'),
    ) as {
      challenge?: unknown;
    };
    if (typeof client.challenge === 'string' && client.challenge.length <= 200) challenge = client.challenge;
  } catch {
    // Not JSON: refused below like any unknown challenge.
  }
  const { rowCount } = await db.query(
    `UPDATE webauthn_challenges SET used_at = now()
      WHERE challenge_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        AND user_id IS NOT DISTINCT FROM $3`,
    [sha256(challenge || randomToken()), purpose, userId],
  );
  if (rowCount === 0) throw AppError.validation({ response: ['auth.passkey.invalid'] });
  return challenge;
}
