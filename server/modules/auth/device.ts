import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keptUnlessFailed } from '../../core/memo.ts';
import type { Queryable } from '../../db/index.ts';

/**
 * The known-device cookie (issue 27): a successful password sign-in marks the browser as a device that has
 * signed in to that account, so the per-account ceiling run up by strangers does not lock the owner out
 * (limits.ts `loginPerDevice`, docs/operations.md "Lockout policy").
 *
 * One cookie per browser, `<device id>.<tag>[.<tag>...]`: a random device id (16 bytes, base64url) and, for
 * each account signed in from it (at most `MAX_ACCOUNTS`, the newest last), a tag HMAC-SHA256(key,
 * device id + user id) cut to 16 bytes. The user id is never in the cookie; a tag made for another account,
 * another device id or another key, or an unsigned value, proves nothing. The key is random, made on first
 * use and kept in the `settings` row `DEVICE_KEY_SETTING`, so every server shares it and it survives restarts.
 * Example: `const device = readDevice(request); if (await isKnownDevice(db, device, userId)) ...`.
 */
export const DEVICE_COOKIE = 'login_device';
/** Sent to the API only: sign-in, password change and WeChat linking all read it. */
export const DEVICE_COOKIE_PATH = '/api';
/** The settings row holding the signing key (no settings group has this name, so no route reads it). */
export const DEVICE_KEY_SETTING = 'login_device_key';
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const MAX_ACCOUNTS = 10;
const PART = /^[A-Za-z0-9_-]{22}$/;

/** The device cookie as sent: the device id and the account tags it holds (not yet checked). */
export interface DeviceCookie {
  id: string;
  tags: string[];
}

const keys = keptUnlessFailed<Queryable, Buffer>();

/** The HMAC key, made once per database (the first server to need it writes it; the others read it). */
function deviceKey(db: Queryable): Promise<Buffer> {
  return keys(db, async () => {
    await db.query(
      `INSERT INTO settings (name, value) VALUES ($1, jsonb_build_object('key', $2::text))
       ON CONFLICT (name) DO NOTHING`,
      [DEVICE_KEY_SETTING, crypto.randomBytes(32).toString('base64url')],
    );
    const { rows } = await db.query<{ value: { key?: unknown } }>(
      'SELECT value FROM settings WHERE name = $1',
      [DEVICE_KEY_SETTING],
    );
    const stored = rows[0]?.value.key;
    if (typeof stored !== 'string' || stored.length < 43) throw new Error('device key missing');
    return Buffer.from(stored, 'base64url');
  });
}

async function tagOf(db: Queryable, deviceId: string, userId: string): Promise<string> {
  return crypto
    .createHmac('sha256', await deviceKey(db))
    .update(`login-device|${deviceId}|${userId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** The request's device cookie when it has the right shape, else null (an unknown device). */
export function readDevice(request: FastifyRequest): DeviceCookie | null {
  const value = request.cookies[DEVICE_COOKIE];
  if (typeof value !== 'string' || value.length > 23 * (MAX_ACCOUNTS + 1)) return null;
  const [id, ...tags] = value.split('.');
  if (!id || !PART.test(id) || tags.length > MAX_ACCOUNTS || !tags.every((tag) => PART.test(tag)))
    return null;
  return { id, tags };
}

/** Whether `device` holds a valid tag for `userId` (compared in constant time). */
export async function isKnownDevice(
  db: Queryable,
  device: DeviceCookie | null,
  userId: string,
): Promise<boolean> {
  if (!device || device.tags.length === 0) return false;
  const expected = Buffer.from(await tagOf(db, device.id, userId));
  let found = false;
  for (const tag of device.tags) {
    const given = Buffer.from(tag);
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) found = true;
  }
  return found;
}

/**
 * Marks the browser as a device of `userId` after a successful sign-in: keeps its device id (or makes one),
 * moves this account's tag to the end, drops the oldest beyond `MAX_ACCOUNTS`, and renews the cookie.
 */
export async function rememberDevice(
  db: Queryable,
  { request, reply, userId }: { request: FastifyRequest; reply: FastifyReply; userId: string },
): Promise<void> {
  const device = readDevice(request);
  const id = device?.id ?? crypto.randomBytes(16).toString('base64url');
  const tag = await tagOf(db, id, userId);
  const tags = [...(device?.tags ?? []).filter((t) => t !== tag), tag].slice(-MAX_ACCOUNTS);
  void reply.setCookie(DEVICE_COOKIE, [id, ...tags].join('.'), {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: MAX_AGE_SECONDS,
  });
}

/** The failure window of one known device for one account (`account` as in session.ts: `user:<id>`). */
export function deviceWindowKey(account: string, deviceId: string): string {
  return `login:device:${account}|${deviceId}`;
}
