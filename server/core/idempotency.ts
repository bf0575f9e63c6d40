import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.ts';
import { AppError } from './errors.ts';

/**
 * `Idempotency-Key` on creates. A create's answer can be lost after its COMMIT reached the disk (the database
 * stopped, the connection or the server died): the client sees a 503 or no answer and retries. With the same
 * key the retry finds the record the first attempt made and answers it (header `Idempotent-Replayed: true`)
 * instead of creating a second one. The key is claimed inside the record's own transaction, so a key is held
 * exactly when its record exists; two attempts at once serialize on the key's row.
 *
 * Keys are per user, hashed at rest, kept a day (`purgeIdempotencyKeys`, the clean-up task); a key reused for
 * another kind of create is a 422.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key is remembered. */
export const IDEMPOTENCY_KEEP_HOURS = 24;

/** The request's key, validated (1 to 255 visible ASCII characters), or null without the header. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(value))
    throw AppError.validation({ idempotency_key: ['validation.idempotency_key'] });
  return value;
}

/** Thrown inside a create's transaction when its key is already held: the transaction rolls back. */
export class Replayed extends Error {
  constructor(readonly recordId: string) {
    super('replayed');
  }
}

/**
 * Claims `key` in `tx` before anything else is written (so a retry replays before a unique check could refuse
 * it), for a create of `target` (e.g. the resource); answers the function that records the created id. When
 * an earlier create holds the key, throws `Replayed` with that record's id (after the earlier transaction
 * committed: the insert waits on its row), or a 422 when it created another kind of record.
 */
export async function claimIdempotencyKey(
  tx: Queryable,
  { userId, key, target }: { userId: string; key: string; target: string },
): Promise<(recordId: string) => Promise<void>> {
  const hash = createHash('sha256').update(key).digest('hex');
  const claimed = await tx.query(
    `INSERT INTO idempotency_keys (user_id, key_hash, target, record_id) VALUES ($1, $2, $3, '')
     ON CONFLICT (user_id, key_hash) DO NOTHING RETURNING 1`,
    [userId, hash, target],
  );
  if (claimed.rows.length)
    return async (recordId) => {
      await tx.query('UPDATE idempotency_keys SET record_id = $3 WHERE user_id = $1 AND key_hash = $2', [
        userId,
        hash,
        recordId,
      ]);
    };
  // A second statement: under READ COMMITTED it sees the holder that committed while the insert waited.
  const { rows } = await tx.query<{ target: string; record_id: string }>(
    'SELECT target, record_id FROM idempotency_keys WHERE user_id = $1 AND key_hash = $2',
    [userId, hash],
  );
  const row = rows[0];
  if (!row?.record_id) throw new AppError(409, 'errors.idempotency_busy');
  if (row.target !== target)
    throw AppError.validation({ idempotency_key: ['validation.idempotency_key_reused'] });
  throw new Replayed(row.record_id);
}

/** Forgets keys older than a day; answers how many. */
export async function purgeIdempotencyKeys(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `WITH gone AS (DELETE FROM idempotency_keys
        WHERE created_at < now() - make_interval(hours => $1) RETURNING 1)
     SELECT count(*) AS n FROM gone`,
    [IDEMPOTENCY_KEEP_HOURS],
  );
  return Number(rows[0]?.n ?? 0);
}
