import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import { httpClient } from './httpClient.ts';
import { isHttpError } from './httpError.ts';
import { getToken, removeToken } from './token.ts';

export interface Role {
  id: string;
  name: string;
  permissions?: { menu_ids?: string[] | null } | null;
}

export interface StaffProfile {
  id: string;
  is_admin: number | boolean;
  department_id?: string | null;
  roles?: Role[];
}

export interface Profile {
  id: string;
  username: string;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  staff?: StaffProfile | null;
}

/** Spec 7: the default include is avatar; staff routes ask for the roles too. */
export const USER_INCLUDE = 'avatar';
export const STAFF_INCLUDE = 'avatar,staff.roles';
export type ProfileInclude = typeof USER_INCLUDE | typeof STAFF_INCLUDE;

export const profileKey = (include: ProfileInclude) => ['profile', include] as const;

/** How often loadProfile starts over when its request gets no answer (cancelled, cut off, network down). */
const RETRIES = 3;
/** The pause before asking again after a request that was cut off rather than cancelled by the cache. */
const RETRY_PAUSE_MS = 250;

/**
 * Loads the signed-in profile through the shared cache; null when anonymous. Spec 4: when the load fails the
 * token is deleted, so the next guard run treats the visitor as signed out. The load has failed when the server
 * answered and refused it (an HttpError: 401, 403, 500...). A request that got no answer says nothing about the
 * session, so it keeps the token and asks again:
 * - a `useQuery` of the same key that unmounts mid-request (a page change) cancels the shared query;
 * - leaving the page, or a network drop, cuts the request off (react-admin's refresh reloads the profile, and
 *   a CI run lost its session by going to another address while that reload was in flight).
 * After the retries it rejects with the last error and the token is still there; the guard then shows the
 * server-error page rather than the sign-in page.
 */
export async function loadProfile(client: QueryClient, include: ProfileInclude): Promise<Profile | null> {
  for (let attempt = 0; ; attempt += 1) {
    if (!getToken()) return null;
    try {
      return await client.fetchQuery({
        queryKey: profileKey(include),
        queryFn: ({ signal }) => requestProfile(include, signal),
        staleTime: 5 * 60_000,
      });
    } catch (error) {
      if (isHttpError(error)) {
        removeToken();
        return null;
      }
      if (attempt >= RETRIES) throw error;
      if (!isCancelled(error)) await pause(RETRY_PAUSE_MS * (attempt + 1));
    }
  }
}

/**
 * The query function of a `useQuery` on `profileKey(include)`: loadProfile's request and token handling
 * without going through the cache, since a query function that fetches its own key through the cache waits
 * for itself forever. A request without an answer keeps the token and rejects, so the query keeps its last
 * state; a refusal deletes the token (spec 4) and resolves with null.
 */
export async function fetchProfile(include: ProfileInclude, signal?: AbortSignal): Promise<Profile | null> {
  if (!getToken()) return null;
  try {
    return await requestProfile(include, signal);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    removeToken();
    return null;
  }
}

/** A query cancelled by the cache, or a fetch aborted by its signal. */
function isCancelled(error: unknown): boolean {
  return isCancelledError(error) || (error as { name?: unknown } | null)?.name === 'AbortError';
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function requestProfile(include: ProfileInclude, signal?: AbortSignal): Promise<Profile> {
  return httpClient<Profile>('v1/user/profile', { query: { include }, signal });
}

/** The freshest profile already in the cache (staff variant first), without a request. */
export function cachedProfile(client: QueryClient): Profile | null {
  return (
    client.getQueryData<Profile>(profileKey(STAFF_INCLUDE)) ??
    client.getQueryData<Profile>(profileKey(USER_INCLUDE)) ??
    null
  );
}

export function clearProfile(client: QueryClient): void {
  client.removeQueries({ queryKey: ['profile'] });
}
