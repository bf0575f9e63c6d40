import {
  isTouchDue,
  lookupToken,
  sha256,
  type EnabledUsers,
  type TokenLookup,
} from '../credentials/tokens.ts';
import type { Db } from '../db/index.ts';
import { databaseOf } from '../db/identity.ts';

/**
 * Per-process cache of who a Bearer token is (its owner) and what that user may do (staff record and
 * permission names), so a signed-in request costs no query for them (issue 14, item 4).
 *
 * Freshness: migration 0043 adds triggers that NOTIFY `auth_changes` whenever a token is revoked, cut short
 * or deleted, a user is disabled or deleted (0149: or moved to the trash or back), or a staff record, its roles or a role's grants change, by
 * whatever writes it. Every server LISTENs and drops its whole cache on that notification, so a role change
 * or a revocation applies on the next request on every server. On PostgreSQL every pooled connection of
 * the server listens as well, so a change this server commits has dropped its cache before the writing
 * query resolves (PGlite, in process, always delivers that early); other servers hear of it a moment after
 * the commit, through their listening connection, which may be later than their next request. So on
 * PostgreSQL a cache hit costs one round trip (`SELECT 1`) on a pooled connection that listens too:
 * PostgreSQL signals every listener before the writer's COMMIT returns, and a listening backend sends the
 * notifications it was signalled for before it answers its next statement, so whatever was committed before
 * this request began has dropped the cache by the time that round trip resolves. A handler that changes
 * nothing (an engine list or read) skips that round trip: its own first query, on such a connection, settles
 * the notifications, and it runs again with a fresh principal if the cache was dropped meanwhile
 * (principal.ts `readSettlingAuth`). A cache is
 * only used while its server is listening; a load that began before a drop is not stored; entries also
 * expire after MAX_AGE_MS, a bound for a notification lost with a broken listening connection.
 * A token's use is still written at most once a minute (tokens.ts), through a lookup when it is due.
 */
export const AUTH_CHANNEL = 'auth_changes';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  at: number;
}

interface AuthCache {
  /** Servers (apps) listening for this database; the cache is used only while this is above 0. */
  listening: number;
  /** Bumped on every drop: a load that started in an older generation is not stored. */
  generation: number;
  tokens: Map<string, Entry<TokenLookup>>;
  principals: Map<string, Entry<unknown>>;
}

const caches = new WeakMap<Db, AuthCache>();

function cacheOf(handle: Db): AuthCache {
  // A request's or a hook's wrapper of the database shares the database's cache.
  const db = databaseOf(handle);
  let cache = caches.get(db);
  if (!cache) {
    cache = { listening: 0, generation: 0, tokens: new Map(), principals: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

/** Forgets every cached token and principal of this database (this process only). */
export function dropAuthCache(db: Db): void {
  const cache = cacheOf(db);
  cache.generation += 1;
  cache.tokens.clear();
  cache.principals.clear();
}

/** Starts listening for changes; the returned function stops. Until then (or if it fails) nothing is cached. */
export async function listenForAuthChanges(db: Db): Promise<() => Promise<void>> {
  const cache = cacheOf(db);
  let unlisten: () => Promise<void>;
  try {
    const drop = () => dropAuthCache(db);
    // After a gap in listening, drops may have been missed: forget everything.
    unlisten = await db.listen(AUTH_CHANNEL, drop, { everyConnection: true, onGap: drop });
  } catch {
    return async () => {};
  }
  dropAuthCache(db);
  cache.listening += 1;
  return async () => {
    cache.listening -= 1;
    dropAuthCache(db);
    await unlisten().catch(() => undefined);
  };
}

/** Whether this database's cache is in use (its server listens for changes). */
export function isAuthCached(db: Db): boolean {
  return cacheOf(db).listening > 0;
}

/** Bumped on every drop of this database's cache: a request that saw it unchanged used no dropped entry. */
export function authGeneration(db: Db): number {
  return cacheOf(db).generation;
}

/**
 * The round trip that settles the notifications of every change committed before it was sent (PostgreSQL;
 * PGlite delivers them in process before its writer's query resolves).
 */
export async function settleAuthChanges(db: Db): Promise<void> {
  if (db.kind === 'postgres') await db.query('SELECT 1');
}

/**
 * The live token's owner, from the cache when fresh (and its use recently written), else the database.
 * `settled: false`: the caller settles pending notifications itself after this (principal.ts
 * `readSettlingAuth`), so a cache hit costs no round trip at all.
 */
export async function cachedToken(
  db: Db,
  accessToken: string,
  { settled = true, enabledUsers }: { settled?: boolean; enabledUsers: EnabledUsers },
): Promise<TokenLookup | null> {
  const cache = cacheOf(db);
  if (cache.listening === 0 || !accessToken || accessToken.length > 200)
    return lookupToken(db, accessToken, enabledUsers);
  if (settled) await settleAuthChanges(db);
  const key = sha256(accessToken);
  const hit = cache.tokens.get(key);
  const now = Date.now();
  if (hit && now - hit.at < MAX_AGE_MS && hit.value.expiresAt > now && !isTouchDue(hit.value.touchedAt))
    return hit.value;
  const generation = cache.generation;
  const found = await lookupToken(db, accessToken, enabledUsers);
  if (found && cache.generation === generation) store(cache.tokens, key, found);
  else cache.tokens.delete(key);
  return found;
}

/**
 * A user's principal parts from the cache when fresh, else from `load` (stored unless a drop came between).
 * Called right after `cachedToken` in the same request, whose round trip has settled the notifications (or
 * in `readSettlingAuth`, whose handler settles them afterwards).
 */
export async function cachedPrincipal<T>(db: Db, userId: string, load: () => Promise<T>): Promise<T> {
  const cache = cacheOf(db);
  if (cache.listening === 0) return load();
  const hit = cache.principals.get(userId);
  if (hit && Date.now() - hit.at < MAX_AGE_MS) return hit.value as T;
  const generation = cache.generation;
  const value = await load();
  if (cache.generation === generation) store(cache.principals, userId, value);
  return value;
}

function store<T>(map: Map<string, Entry<T>>, key: string, value: T): void {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, { value, at: Date.now() });
}
