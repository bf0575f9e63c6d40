import { useQuery } from '@tanstack/react-query';
import { STAFF_INCLUDE, fetchProfile, profileKey } from './profile.ts';
import { hasPermission, permissionsOf } from './permissions.ts';

/** The signed-in staff member's permission names (`['*']` for an administrator), from the shared cache. */
export function usePermissionList(): { permissions: string[]; isPending: boolean } {
  const { data, isPending } = useQuery({
    queryKey: profileKey(STAFF_INCLUDE),
    queryFn: ({ signal }) => fetchProfile(STAFF_INCLUDE, signal),
    staleTime: 5 * 60_000,
  });
  return { permissions: permissionsOf(data), isPending };
}

/**
 * Whether the signed-in staff member holds `name` (always, for is_admin 1). The server enforces every check;
 * this only decides what to show.
 *
 * @example
 * const canCreate = useCan('system.users.staff.create');
 */
export function useCan(name: string): boolean {
  const { permissions } = usePermissionList();
  return hasPermission(permissions, name);
}
