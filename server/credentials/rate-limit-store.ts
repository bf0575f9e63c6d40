import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Queryable } from '../db/index.ts';
import { sha256 } from './tokens.ts';

/** What a fixed window holds right now. */
export interface WindowState {
  current: number;
  ttl: number;
}

/**
 * A store for @fastify/rate-limit that keeps fixed-window counters in the `rate_limits` table, so that N
 * stateless servers share one count per key (the plugin's default store lives in one process's memory).
 * Example: `await app.register(rateLimit, { global: false, store: createDbRateLimitStore(db) })`.
 */
export function createDbRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  class DbRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    private readonly timeWindow: number;

    constructor(options?: unknown, prefix = '') {
      const tw = (options as { timeWindow?: unknown } | undefined)?.timeWindow;
      this.timeWindow = typeof tw === 'number' ? tw : 60_000;
      this.prefix = prefix;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: WindowState) => void,
      timeWindow?: number,
    ): void {
      hitWindow(db, { key: this.prefix + key, windowMs: timeWindow ?? this.timeWindow }).then(
        (state) => callback(null, state),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: { method?: unknown; url?: string; timeWindow?: unknown }): FastifyRateLimitStore {
      // Route limiters get their own namespace, as the plugin's LocalStore does per route.
      const routeInfo = (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo;
      const scope = routeInfo?.url ? `${String(routeInfo.method)} ${routeInfo.url}|` : '';
      return new DbRateLimitStore(routeOptions, this.prefix + scope);
    }
  }
  return DbRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}

/** Counts one hit on `key`, opening a new window when the last one has passed. */
export async function hitWindow(
  db: Queryable,
  { key, windowMs }: { key: string; windowMs: number },
): Promise<WindowState> {
  const { rows } = await db.query<{ hits: number; ttl_ms: number }>(
    `INSERT INTO rate_limits (key, hits, reset_at)
     VALUES ($1, 1, now() + $2::double precision * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.hits + 1 END,
       reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
     RETURNING hits, extract(epoch FROM (reset_at - now())) * 1000 AS ttl_ms`,
    [sha256(key), windowMs],
  );
  const row = rows[0]!;
  return { current: Number(row.hits), ttl: Math.max(0, Math.ceil(Number(row.ttl_ms))) };
}

/** Reads a window without counting a hit: how many hits it holds and how long until it ends. */
export async function peekWindow(db: Queryable, key: string): Promise<WindowState> {
  const { rows } = await db.query<{ hits: number; ttl_ms: number }>(
    `SELECT hits, extract(epoch FROM (reset_at - now())) * 1000 AS ttl_ms
       FROM rate_limits WHERE key = $1 AND reset_at > now()`,
    [sha256(key)],
  );
  const row = rows[0];
  return row
    ? { current: Number(row.hits), ttl: Math.max(0, Math.ceil(Number(row.ttl_ms))) }
    : { current: 0, ttl: 0 };
}

/** Takes one hit back from a window that is still open (an attempt that turned out to be allowed). */
export async function giveBackHit(db: Queryable, key: string): Promise<void> {
  await db.query('UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND reset_at > now() AND hits > 0', [
    sha256(key),
  ]);
}

/** Forgets a window (a successful sign-in clears that account's failures). */
export async function clearWindow(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM rate_limits WHERE key = $1', [sha256(key)]);
}

/** Deletes windows that have ended; returns how many rows went. */
export async function purgeRateLimits(db: Queryable): Promise<number> {
  const res = await db.query('DELETE FROM rate_limits WHERE reset_at < now()');
  return res.rowCount;
}
