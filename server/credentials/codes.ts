import crypto from 'node:crypto';
import type { Channel, Scene } from '../../schemas/auth.ts';
import type { Db, Queryable } from '../db/index.ts';
import { sha256 } from './tokens.ts';

/** A code lives 10 minutes and dies after 5 wrong tries. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

export interface CodeTarget {
  channel: Channel;
  to: string;
  scene: Scene;
}

/** Six digits from the CSPRNG (crypto.randomInt is uniform, no modulo bias). */
export function generateCode(): string {
  return String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Stores a new code for a target and returns it in clear (for delivery only; it is never stored or logged).
 * Earlier live codes of the same target are retired, so only the newest one works.
 */
export async function issueCode(
  db: Db,
  { target, ip }: { target: CodeTarget; ip?: string },
): Promise<string> {
  const code = generateCode();
  const salt = crypto.randomBytes(16).toString('base64url');
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE verification_codes SET consumed_at = now()
        WHERE channel = $1 AND destination = $2 AND scene = $3 AND consumed_at IS NULL`,
      [target.channel, target.to, target.scene],
    );
    await tx.query(
      `INSERT INTO verification_codes (channel, destination, scene, salt, code_hash, expires_at, ip)
       VALUES ($1, $2, $3, $4, $5, now() + $6::double precision * interval '1 millisecond', $7)`,
      [
        target.channel,
        target.to,
        target.scene,
        salt,
        hashCode({ target, salt, code }),
        CODE_TTL_MS,
        ip ?? null,
      ],
    );
  });
  return code;
}

/**
 * Checks a code for a target. A match consumes it (single use); a miss counts a try and burns the code at the
 * fifth. Runs in its own transaction with the row locked, so two concurrent uses cannot both succeed and the
 * try count survives whatever the caller does next.
 */
export async function consumeCode(
  db: Db,
  { target, code }: { target: CodeTarget; code: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; salt: string; code_hash: string; attempts: number }>(
      `SELECT id, salt, code_hash, attempts FROM verification_codes
        WHERE channel = $1 AND destination = $2 AND scene = $3 AND consumed_at IS NULL AND expires_at > now()
        ORDER BY id DESC LIMIT 1 FOR UPDATE`,
      [target.channel, target.to, target.scene],
    );
    const row = rows[0];
    if (!row) {
      // Spend the same hashing work as a real check; the answer must not tell "no code" from "wrong code".
      hashCode({ target, salt: 'none', code });
      return false;
    }
    const given = Buffer.from(hashCode({ target, salt: row.salt, code }), 'hex');
    const stored = Buffer.from(row.code_hash, 'hex');
    if (given.length === stored.length && crypto.timingSafeEqual(given, stored)) {
      await tx.query('UPDATE verification_codes SET consumed_at = now() WHERE id = $1', [row.id]);
      return true;
    }
    await tx.query(
      `UPDATE verification_codes SET attempts = attempts + 1,
         consumed_at = CASE WHEN attempts + 1 >= $2 THEN now() ELSE NULL END
       WHERE id = $1`,
      [row.id, CODE_MAX_ATTEMPTS],
    );
    return false;
  });
}

/** Deletes codes that expired more than a day ago (kept a day for support questions); returns the count. */
export async function purgeCodes(db: Queryable): Promise<number> {
  const res = await db.query(`DELETE FROM verification_codes WHERE expires_at < now() - interval '1 day'`);
  return res.rowCount;
}

function hashCode({ target, salt, code }: { target: CodeTarget; salt: string; code: string }): string {
  // The target is part of the hash as well as of the lookup: a row copied to another target is useless.
  return sha256(`${salt}:${target.channel}:${target.to}:${target.scene}:${code}`);
}
