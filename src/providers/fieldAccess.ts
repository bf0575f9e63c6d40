import { useQuery } from '@tanstack/react-query';
import { httpClient } from './httpClient.ts';
import { STAFF_INCLUDE, fetchProfile, profileKey } from './profile.ts';

/** One field's restriction for the caller: absent from every answer, or shown but not writable. */
export type FieldRestriction = 'hidden' | 'read';

/** `"<resource>.<field>"` -> restriction: the caller's effective field access (only restricted fields). */
export type FieldAccess = Readonly<Record<string, FieldRestriction>>;

/** Nothing restricted: what an administrator (or a caller whose roles name no field) has. */
export const NO_RESTRICTIONS: FieldAccess = Object.freeze({});

/** Under the profile's key, so signing out (clearProfile) forgets it with the profile. */
export const fieldAccessKey = ['profile', 'field-access'] as const;

/**
 * The signed-in caller's field access (`GET v1/user/info` `field_access`), shared through the query cache.
 * An administrator has none (no request); `isPending` is true until a staff member's answer arrives, so a
 * screen can wait instead of showing a field and then taking it away. The server enforces every rule; this
 * only decides what the screens offer.
 *
 * @example
 * const { access } = useFieldAccess(); restrictionOf(access, 'staff', 'phone') // 'hidden' | 'read' | undefined
 */
export function useFieldAccess(): { access: FieldAccess; isPending: boolean } {
  const profile = useQuery({
    queryKey: profileKey(STAFF_INCLUDE),
    queryFn: ({ signal }) => fetchProfile(STAFF_INCLUDE, signal),
    staleTime: 5 * 60_000,
  });
  const staff = profile.data?.staff;
  const isAdmin = staff?.is_admin === 1 || staff?.is_admin === true;
  const needsAnswer = Boolean(staff) && !isAdmin;
  const info = useQuery({
    queryKey: fieldAccessKey,
    queryFn: ({ signal }) => fetchFieldAccess(signal),
    staleTime: 5 * 60_000,
    enabled: needsAnswer,
  });
  if (!needsAnswer) return { access: NO_RESTRICTIONS, isPending: profile.isPending };
  return { access: info.data ?? NO_RESTRICTIONS, isPending: info.isPending };
}

/** The restriction of one field for the caller, if any. */
export function restrictionOf(
  access: FieldAccess,
  resource: string,
  field: string,
): FieldRestriction | undefined {
  const value = access[`${resource}.${field}`];
  return value === 'hidden' || value === 'read' ? value : undefined;
}

/**
 * `restrict(resource)` for the caller's access, or the resource itself when none of its fields is
 * restricted; the same object comes back while the resource's restrictions are unchanged (kept in `cache`),
 * so memoised screens and per-resource caches stay put. Shared by the list descriptors and the forms.
 */
export function restrictedView<R extends { name: string; fields: readonly { name: string }[] }>(
  resource: R,
  access: FieldAccess,
  cache: WeakMap<R, Map<string, R>>,
  restrict: (resource: R) => R,
): R {
  const restricted = resource.fields.filter((f) => restrictionOf(access, resource.name, f.name));
  if (!restricted.length) return resource;
  const signature = restricted.map((f) => `${f.name}=${restrictionOf(access, resource.name, f.name)}`).join();
  let byAccess = cache.get(resource);
  if (!byAccess) cache.set(resource, (byAccess = new Map()));
  let found = byAccess.get(signature);
  if (!found) {
    found = restrict(resource);
    byAccess.set(signature, found);
  }
  return found;
}

/**
 * `field_access` of `GET v1/user/info`. A server without it (an older version) restricts nothing on the
 * screens: the server's own refusals still hold, so the worst case is a column left empty.
 */
async function fetchFieldAccess(signal?: AbortSignal): Promise<FieldAccess> {
  try {
    const info = await httpClient<{ field_access?: unknown }>('v1/user/info', { signal });
    return toFieldAccess(info?.field_access);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return NO_RESTRICTIONS;
    throw error;
  }
}

/** Keeps the well-formed entries of an answer's `field_access`. */
export function toFieldAccess(value: unknown): FieldAccess {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return NO_RESTRICTIONS;
  const out: Record<string, FieldRestriction> = {};
  for (const [key, restriction] of Object.entries(value as Record<string, unknown>)) {
    if (restriction === 'hidden' || restriction === 'read') out[key] = restriction;
  }
  return out;
}
