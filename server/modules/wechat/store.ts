import { randomToken, sha256 } from '../../credentials/tokens.ts';
import type { Queryable } from '../../db/index.ts';
import type { WechatUser } from './client.ts';

export const PROVIDER = 'officialaccount';
/** A started authorisation is good for 10 minutes; a registration ticket for 15. */
export const STATE_TTL_MS = 10 * 60 * 1000;
export const TICKET_TTL_MS = 15 * 60 * 1000;
/** Wrong passwords a ticket survives while linking to an existing account. */
export const TICKET_MAX_ATTEMPTS = 5;

export interface StateRow {
  id: string;
  browser_hash: string;
  remember: boolean;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface TicketRow {
  id: string;
  app_id: string;
  openid: string;
  unionid: string | null;
  nickname: string;
  avatar_url: string | null;
  remember: boolean;
}

export interface IdentityRow {
  id: string;
  user_id: string;
  nickname: string;
  avatar_url: string | null;
  created_at: Date;
}

/** Stores a new state bound to a browser nonce and returns the state in clear (it goes into WeChat's URL). */
export async function createState(
  db: Queryable,
  { browserNonce, remember }: { browserNonce: string; remember: boolean },
): Promise<string> {
  const state = randomToken(24);
  await db.query(
    `INSERT INTO wechat_states (state_hash, browser_hash, remember, expires_at)
     VALUES ($1, $2, $3, now() + $4::double precision * interval '1 millisecond')`,
    [sha256(state), sha256(browserNonce), remember, STATE_TTL_MS],
  );
  return state;
}

/** A live state of this browser, or null (unknown, used, expired or started by another browser). */
export async function findLiveState(
  db: Queryable,
  { state, browserNonce }: { state: string; browserNonce: string | undefined },
): Promise<StateRow | null> {
  const { rows } = await db.query<StateRow>(
    `SELECT id, browser_hash, remember, expires_at, consumed_at FROM wechat_states
      WHERE state_hash = $1 AND consumed_at IS NULL AND expires_at > now()`,
    [sha256(state)],
  );
  const row = rows[0];
  if (!row || !browserNonce || row.browser_hash !== sha256(browserNonce)) return null;
  return row;
}

/** Marks a state used; false when another request used it first. */
export async function consumeState(db: Queryable, id: string): Promise<boolean> {
  const res = await db.query(
    'UPDATE wechat_states SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL',
    [id],
  );
  return res.rowCount === 1;
}

/** Burns any state presented by the wrong browser, so a leaked state cannot be tried again elsewhere. */
export async function burnState(db: Queryable, state: string): Promise<void> {
  await db.query(
    'UPDATE wechat_states SET consumed_at = now() WHERE state_hash = $1 AND consumed_at IS NULL',
    [sha256(state)],
  );
}

/** The identity for a WeChat user: by provider + openid, or by unionid when WeChat gave one. */
export async function findIdentity(
  db: Queryable,
  user: Pick<WechatUser, 'openid' | 'unionid'>,
): Promise<IdentityRow | null> {
  const { rows } = await db.query<IdentityRow>(
    `SELECT id, user_id, nickname, avatar_url, created_at FROM wechat_identities
      WHERE (provider = $1 AND openid = $2) OR ($3::text IS NOT NULL AND unionid = $3)
      ORDER BY (openid = $2) DESC LIMIT 1`,
    [PROVIDER, user.openid, user.unionid],
  );
  return rows[0] ?? null;
}

export async function findIdentityOfUser(db: Queryable, userId: string): Promise<IdentityRow | null> {
  const { rows } = await db.query<IdentityRow>(
    `SELECT id, user_id, nickname, avatar_url, created_at FROM wechat_identities
      WHERE user_id = $1 AND provider = $2`,
    [userId, PROVIDER],
  );
  return rows[0] ?? null;
}

/** Links a WeChat user to an account (inside the caller's transaction). */
export async function insertIdentity(
  db: Queryable,
  { userId, ticket }: { userId: string; ticket: TicketRow },
): Promise<void> {
  await db.query(
    `INSERT INTO wechat_identities (user_id, provider, app_id, openid, unionid, nickname, avatar_url, last_login_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
    [userId, PROVIDER, ticket.app_id, ticket.openid, ticket.unionid, ticket.nickname, ticket.avatar_url],
  );
}

/** Refreshes what WeChat said about a known identity at sign-in (nickname and avatar change over time). */
export async function touchIdentity(
  db: Queryable,
  { id, user, appId }: { id: string; user: WechatUser; appId: string },
): Promise<void> {
  await db.query(
    `UPDATE wechat_identities SET nickname = $2, avatar_url = $3, unionid = coalesce(unionid,
         (SELECT $4::text WHERE NOT EXISTS (SELECT 1 FROM wechat_identities WHERE unionid = $4::text))),
       app_id = $5, last_login_at = now() WHERE id = $1`,
    [id, user.nickname, user.avatar, user.unionid, appId],
  );
}

/** Stores a registration ticket for a WeChat user who is not linked yet; returns it in clear. */
export async function createTicket(
  db: Queryable,
  { user, appId, remember }: { user: WechatUser; appId: string; remember: boolean },
): Promise<string> {
  const ticket = randomToken();
  await db.query(
    `INSERT INTO wechat_tickets
       (ticket_hash, provider, app_id, openid, unionid, nickname, avatar_url, remember, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9::double precision * interval '1 millisecond')`,
    [
      sha256(ticket),
      PROVIDER,
      appId,
      user.openid,
      user.unionid,
      user.nickname,
      user.avatar,
      remember,
      TICKET_TTL_MS,
    ],
  );
  return ticket;
}

/** A live ticket (unexpired, unused, fewer than 5 wrong passwords), or null. */
export async function findLiveTicket(db: Queryable, ticket: string): Promise<TicketRow | null> {
  const { rows } = await db.query<TicketRow>(
    `SELECT id, app_id, openid, unionid, nickname, avatar_url, remember FROM wechat_tickets
      WHERE ticket_hash = $1 AND consumed_at IS NULL AND expires_at > now() AND attempts < $2`,
    [sha256(ticket), TICKET_MAX_ATTEMPTS],
  );
  return rows[0] ?? null;
}

/** Marks a ticket used; false when another request used it first. */
export async function consumeTicket(db: Queryable, id: string): Promise<boolean> {
  const res = await db.query(
    'UPDATE wechat_tickets SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL',
    [id],
  );
  return res.rowCount === 1;
}

/** Counts a wrong password against a ticket. */
export async function countTicketAttempt(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE wechat_tickets SET attempts = attempts + 1 WHERE id = $1', [id]);
}

/** Deletes states and tickets that expired more than a day ago; returns the count. */
export async function purgeWechatRows(db: Queryable): Promise<number> {
  const a = await db.query(`DELETE FROM wechat_states WHERE expires_at < now() - interval '1 day'`);
  const b = await db.query(`DELETE FROM wechat_tickets WHERE expires_at < now() - interval '1 day'`);
  return a.rowCount + b.rowCount;
}
