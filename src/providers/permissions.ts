import { WILDCARD_PERMISSION } from '../../schemas/permissions.ts';
import type { Profile } from './profile.ts';

/**
 * Spec 6: an is_admin staff member holds the wildcard; other staff hold the union of their roles' menu_ids;
 * anyone else holds nothing.
 */
export function permissionsOf(profile: Profile | null | undefined): string[] {
  const staff = profile?.staff;
  if (!staff) return [];
  if (staff.is_admin === 1 || staff.is_admin === true) return [WILDCARD_PERMISSION];
  const names = new Set<string>();
  for (const role of staff.roles ?? []) {
    for (const name of role.permissions?.menu_ids ?? []) names.add(name);
  }
  return [...names];
}

/** True when `name` is held (or the wildcard is). */
export function hasPermission(permissions: readonly string[], name: string): boolean {
  return permissions.includes(WILDCARD_PERMISSION) || permissions.includes(name);
}
