import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import { httpClient } from './httpClient.ts';
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

/** How often loadProfile starts over when its request is cancelled rather than answered. */
const CANCELLED_RETRIES = 3;

/**
 * Loads the signed-in profile through the shared cache; null when anonymous. Spec 4: when the load fails the
 * token is deleted, so the next guard run treats the visitor as signed out. A request that was cancelled did
 * not fail: a `useQuery` of the same key that unmounts mid-request (a page change) cancels the shared query,
 * and signing out for that would send a signed-in user to the sign-in page. The load then starts over.
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
      if (isCancelled(error) && attempt < CANCELLED_RETRIES) continue;
      removeToken();
      return null;
    }
  }
}

/**
 * The query function of a `useQuery` on `profileKey(include)`: loadProfile's request and token handling
 * without going through the cache, since a query function that fetches its own key through the cache waits
 * for itself forever. A cancelled request keeps the token and rejects, so the query keeps its last state.
 */
export async function fetchProfile(include: ProfileInclude, signal?: AbortSignal): Promise<Profile | null> {
  if (!getToken()) return null;
  try {
    return await requestProfile(include, signal);
  } catch (error) {
    if (signal?.aborted || isCancelled(error)) throw error;
    removeToken();
    return null;
  }
}

/** A query cancelled by the cache, or a fetch aborted by its signal: no answer, so no failure either. */
function isCancelled(error: unknown): boolean {
  return isCancelledError(error) || (error as { name?: unknown } | null)?.name === 'AbortError';
}

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
