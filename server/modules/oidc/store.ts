import { randomToken, sha256 } from '../../credentials/tokens.ts';
import type { Queryable } from '../../db/index.ts';

/** A started authorisation is good for 10 minutes; the ticket the callback hands over for 2. */
export const STATE_TTL_MS = 10 * 60_000;
export const TICKET_TTL_MS = 2 * 60_000;

export interface StateRow {
  id: string;
  browser_hash: string;
  provider_id: string;
  code_verifier: string;
  nonce: string;
  href: string;
  remember: boolean;
  bind_user_id: string | null;
}

export interface IdentityRow {
  id: string;
  user_id: string;
  provider_id: string;
  issuer: string;
  subject: string;
  email: string | null;
  created_at: Date;
  last_login_at: Date | null;
}

/** Stores a started authorisation; answers the state in clear (it rides on the provider's URL). */
export async function createState(
  db: Queryable,
  input: Omit<StateRow, 'id' | 'browser_hash'> & { browserNonce: string },
): Promise<string> {
  const state = randomToken(24);
  await db.query(
    `INSERT INTO oidc_states (state_hash, browser_hash, provider_id, code_verifier, nonce, href, remember,
                              bind_user_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9::double precision * interval '1 millisecond')`,
    [
      sha256(state),
      sha256(input.browserNonce),
      input.provider_id,
      input.code_verifier,
      input.nonce,
      input.href,
      input.remember,
      input.bind_user_id,
      STATE_TTL_MS,
    ],
  );
  return state;
}

/**
 * Spends a live state in one statement and answers it when it belongs to this browser and provider, else null.
 * A state shown by another browser is spent all the same: a leaked state is good for nothing afterwards.
 */
export async function takeState(
  db: Queryable,
  {
    state,
    browserNonce,
    providerId,
  }: { state: string; browserNonce: string | undefined; providerId: string },
): Promise<StateRow | null> {
  if (!state || state.length > 200) return null;
  const { rows } = await db.query<StateRow>(
    `UPDATE oidc_states SET consumed_at = now()
      WHERE state_hash = $1 AND consumed_at IS NULL AND expires_at > now()
      RETURNING id, browser_hash, provider_id, code_verifier, nonce, href, remember, bind_user_id::text`,
    [sha256(state)],
  );
  const row = rows[0];
  if (!row || !browserNonce || row.browser_hash !== sha256(browserNonce)) return null;
  return row.provider_id === providerId ? row : null;
}

/** Stores the one-time ticket for a user the provider vouched for; answers it in clear. */
export async function createTicket(
  db: Queryable,
  { userId, providerId, remember }: { userId: string; providerId: string; remember: boolean },
): Promise<string> {
  const ticket = randomToken();
  await db.query(
    `INSERT INTO oidc_tickets (ticket_hash, user_id, provider_id, remember, expires_at)
     VALUES ($1, $2, $3, $4, now() + $5::double precision * interval '1 millisecond')`,
    [sha256(ticket), userId, providerId, remember, TICKET_TTL_MS],
  );
  return ticket;
}

/** Spends a live ticket (one statement, so two requests cannot both use it); null when dead or unknown. */
export async function takeTicket(
  db: Queryable,
  ticket: string,
): Promise<{ user_id: string; provider_id: string; remember: boolean } | null> {
  const { rows } = await db.query<{ user_id: string; provider_id: string; remember: boolean }>(
    `UPDATE oidc_tickets SET consumed_at = now()
      WHERE ticket_hash = $1 AND consumed_at IS NULL AND expires_at > now()
      RETURNING user_id::text, provider_id, remember`,
    [sha256(ticket)],
  );
  return rows[0] ?? null;
}

export async function findIdentity(
  db: Queryable,
  { issuer, subject }: { issuer: string; subject: string },
): Promise<IdentityRow | null> {
  const { rows } = await db.query<IdentityRow>(
    `SELECT id, user_id::text, provider_id, issuer, subject, email, created_at, last_login_at
       FROM oidc_identities WHERE issuer = $1 AND subject = $2`,
    [issuer, subject],
  );
  return rows[0] ?? null;
}

/** The identities bound to a user, one per provider entry. */
export async function identitiesOf(db: Queryable, userId: string): Promise<IdentityRow[]> {
  const { rows } = await db.query<IdentityRow>(
    `SELECT id, user_id::text, provider_id, issuer, subject, email, created_at, last_login_at
       FROM oidc_identities WHERE user_id = $1 ORDER BY provider_id`,
    [userId],
  );
  return rows;
}

/** Binds a subject to a user (inside the caller's transaction); raises 23505 when either side is bound. */
export async function insertIdentity(
  db: Queryable,
  input: { userId: string; providerId: string; issuer: string; subject: string; email: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO oidc_identities (user_id, provider_id, issuer, subject, email, last_login_at)
     VALUES ($1, $2, $3, $4, $5, now())`,
    [input.userId, input.providerId, input.issuer, input.subject, input.email],
  );
}

export async function touchIdentity(db: Queryable, id: string, email: string | null): Promise<void> {
  await db.query('UPDATE oidc_identities SET last_login_at = now(), email = $2 WHERE id = $1', [id, email]);
}

/** Unbinds a user's identity of one provider entry; false when there was none. */
export async function deleteIdentity(
  db: Queryable,
  { userId, providerId }: { userId: string; providerId: string },
): Promise<boolean> {
  const res = await db.query('DELETE FROM oidc_identities WHERE user_id = $1 AND provider_id = $2', [
    userId,
    providerId,
  ]);
  return res.rowCount === 1;
}

/** Deletes states and tickets that expired more than a day ago; answers the count. */
export async function purgeOidcRows(db: Queryable): Promise<number> {
  const a = await db.query(`DELETE FROM oidc_states WHERE expires_at < now() - interval '1 day'`);
  const b = await db.query(`DELETE FROM oidc_tickets WHERE expires_at < now() - interval '1 day'`);
  return a.rowCount + b.rowCount;
}
