import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EnabledUsers } from '../credentials/tokens.ts';
import type { Db, StatementOptions } from '../db/index.ts';
import {
  authGeneration,
  cachedPrincipal,
  cachedToken,
  isAuthCached,
  listenForAuthChanges,
  settleAuthChanges,
} from './auth-cache.ts';
import { AppError } from './errors.ts';

/** Which rows a role's members see of the resources it grants (server/engine/scope.ts). */
export type DataScope = 'all' | 'department_and_below' | 'department' | 'self' | 'custom';

/** One enabled role the caller holds, as the data scopes and field access read it. */
export interface PrincipalRole {
  id: string;
  /** This role's permission names (its menu_ids). */
  permissions: ReadonlySet<string>;
  dataScope: DataScope;
  /** data_scope_department_ids, for 'custom'. */
  departmentIds: readonly string[];
  /** field_access: "<resource>.<field>" -> 'hidden' | 'read'. */
  fieldAccess: Readonly<Record<string, 'hidden' | 'read'>>;
}

/** Who is calling: the signed-in user, their staff record (if any) and the permission names they hold. */
export interface Principal {
  userId: string;
  tokenId: string;
  staff: { id: string; isAdmin: boolean; departmentId: string | null } | null;
  /** Union of the enabled roles' menu_ids; admins hold every name (see `can`). */
  permissions: ReadonlySet<string>;
  /** The enabled roles only (for an API token: narrowed to its scope, see `narrowToToken`). */
  roles: readonly PrincipalRole[];
  /** Set when the caller is a personal API token: its name (activity rows name it). */
  apiToken?: { id: string; name: string };
}

/**
 * What a personal API token may do: the names of its scope its owner holds now (an administrator holds
 * every name), never administrator powers. Computed on every request from the owner's current principal,
 * so an owner who loses a role loses it in their tokens at once. Its roles are the owner's, each narrowed
 * to the token's names, so data scopes and field access stay the owner's; an administrator's token acts
 * as one role holding the token's names with every row and field (the administrator's own reach).
 */
export function narrowToToken(
  owner: Pick<Principal, 'staff' | 'permissions' | 'roles'>,
  scope: readonly string[],
): Pick<Principal, 'staff' | 'permissions' | 'roles'> {
  if (!owner.staff) return { staff: null, permissions: new Set(), roles: [] };
  const isAdmin = owner.staff.isAdmin;
  const held = new Set(scope.filter((name) => isAdmin || owner.permissions.has(name)));
  const roles: PrincipalRole[] = isAdmin
    ? [{ id: 'api-token', permissions: held, dataScope: 'all', departmentIds: [], fieldAccess: {} }]
    : owner.roles.map((role) => ({
        ...role,
        permissions: new Set([...role.permissions].filter((name) => held.has(name))),
      }));
  return { staff: { ...owner.staff, isAdmin: false }, permissions: held, roles };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The engine's account reads (see `Accounts`), set by `registerPrincipal`. */
    accounts: Accounts;
  }
  interface FastifyRequest {
    /** The caller, resolved once per request from the Bearer token; null when anonymous. */
    principal(): Promise<Principal | null>;
    principalCache?: Promise<Principal | null>;
    /** The signed-in user's id once `principal()` has found the token's owner (the request log line's `userId`). */
    signedInUserId: Principal['userId'] | undefined;
    /** Set while `readSettlingAuth` runs its handler: a cached principal needs no settling round trip. */
    settlesAuthLater: boolean;
  }
}

/** True when the principal holds `name` (admins hold every name). */
export function can(principal: Principal | null, name: string): boolean {
  if (!principal?.staff) return false;
  return principal.staff.isAdmin || principal.permissions.has(name);
}

/** 401 unless signed in. */
export async function requireUser(request: FastifyRequest): Promise<Principal> {
  const principal = await request.principal();
  if (!principal) throw AppError.unauthenticated();
  return principal;
}

/** 401 unless signed in, 403 unless staff. */
export async function requireStaff(
  request: FastifyRequest,
): Promise<Principal & { staff: NonNullable<Principal['staff']> }> {
  const principal = await requireUser(request);
  if (!principal.staff) throw AppError.forbidden();
  return principal as Principal & { staff: NonNullable<Principal['staff']> };
}

/** 401 unless signed in, 403 unless staff holding `name`. */
export async function requirePermission(request: FastifyRequest, name: string): Promise<Principal> {
  const principal = await requireStaff(request);
  if (!can(principal, name)) throw AppError.forbidden();
  return principal;
}

/** Reads the Bearer token of a request, if any. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * What this layer needs to know about accounts, whose tables the engine owns: the engine supplies it
 * (server/engine/accounts.ts) and the app hands it to `registerPrincipal`, which keeps it as `app.accounts`
 * for the other core modules (the events stream).
 */
export interface Accounts {
  /** A user's staff record and permission names. */
  loadPrincipal(db: Db, owner: { userId: string; tokenId: string }): Promise<Principal>;
  /** Which of these user ids name an enabled account. */
  enabledUsers: EnabledUsers;
  /**
   * Whether a caller's data scope holds a record, from the record's scope columns an event carries (no
   * query): live events of scoped resources reach only the subscribers who may see the record.
   */
  seesRecord(
    principal: Principal,
    permission: string,
    record: { departments: readonly string[]; owners: readonly string[] },
  ): boolean;
}

/**
 * `request.principal()`: the Bearer token's owner and their principal, each from the per-process cache when
 * this server is listening for changes (auth-cache.ts), so a signed-in request usually runs no query for it.
 */
export function registerPrincipal(app: FastifyInstance, db: Db, accounts: Accounts): void {
  app.decorate('accounts', accounts);
  let stopListening: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stopListening = await listenForAuthChanges(db);
  });
  app.addHook('onClose', async () => {
    await stopListening?.();
    stopListening = null;
  });
  app.decorateRequest('principalCache', undefined);
  app.decorateRequest('settlesAuthLater', false);
  app.decorateRequest('signedInUserId', undefined);
  app.decorateRequest('principal', function (this: FastifyRequest) {
    this.principalCache ??= (async () => {
      const token = bearerToken(this);
      if (!token) return null;
      const owner = await cachedToken(db, token, {
        settled: !this.settlesAuthLater,
        enabledUsers: accounts.enabledUsers,
      });
      if (!owner) return null;
      const { userId, tokenId, apiToken } = owner;
      this.signedInUserId = userId;
      const parts = await cachedPrincipal(db, userId, () => accounts.loadPrincipal(db, { userId, tokenId }));
      if (!apiToken)
        return { userId, tokenId, staff: parts.staff, permissions: parts.permissions, roles: parts.roles };
      return {
        userId,
        tokenId,
        ...narrowToToken(parts, apiToken.scope),
        apiToken: { id: tokenId, name: apiToken.name },
      };
    })();
    return this.principalCache;
  });
}

/**
 * Runs a handler that changes nothing (an engine list or read) without the round trip a cached principal
 * costs on PostgreSQL to settle pending notifications (auth-cache.ts): the handler's own queries, on pooled
 * connections that listen too, settle them. When it is done, if the cache was dropped since it began (a
 * token, user, staff record, role or grant changed), its answer or error is thrown away and it runs again
 * with the principal read afresh, so a change committed before the request began still applies to it. A
 * handler that ran no query (it failed before one) gets the settling round trip afterwards. `run` gets the
 * database to query through (it notes each answered statement).
 */
export async function readSettlingAuth<T>(
  request: FastifyRequest,
  db: Db,
  run: (db: Db) => Promise<T>,
): Promise<T> {
  if (!isAuthCached(db) || request.principalCache) return run(db);
  const generation = authGeneration(db);
  let answered = false;
  const noting: Db = Object.create(db) as Db;
  noting.query = async <R>(sql: string, params?: readonly unknown[], options?: StatementOptions) => {
    const result = await db.query<R>(sql, params, options);
    answered = true;
    return result;
  };
  let outcome: { value: T } | { error: unknown };
  request.settlesAuthLater = true;
  try {
    outcome = { value: await run(noting) };
  } catch (error) {
    outcome = { error };
  } finally {
    request.settlesAuthLater = false;
  }
  if (!answered) await settleAuthChanges(db);
  if (authGeneration(db) !== generation) {
    request.principalCache = undefined;
    return run(db);
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
