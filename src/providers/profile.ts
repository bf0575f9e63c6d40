import type { QueryClient } from '@tanstack/react-query';
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

/**
 * Loads the signed-in profile through the shared cache; null when anonymous. Spec 4: when the load fails the
 * token is deleted, so the next guard run treats the visitor as signed out.
 */
export async function loadProfile(client: QueryClient, include: ProfileInclude): Promise<Profile | null> {
  if (!getToken()) return null;
  try {
    return await client.fetchQuery({
      queryKey: profileKey(include),
      queryFn: ({ signal }) => requestProfile(include, signal),
      staleTime: 5 * 60_000,
    });
  } catch {
    removeToken();
    return null;
  }
}

/**
 * The query function of a `useQuery` on `profileKey(include)`: loadProfile's request and token handling
 * without going through the cache, since a query function that fetches its own key through the cache waits
 * for itself forever.
 */
export async function fetchProfile(include: ProfileInclude, signal?: AbortSignal): Promise<Profile | null> {
  if (!getToken()) return null;
  try {
    return await requestProfile(include, signal);
  } catch {
    removeToken();
    return null;
  }
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
