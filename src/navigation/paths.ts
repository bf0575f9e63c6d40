/** Top-level areas served by the lazily loaded admin shell; everything else is public, an error or a 404. */
export const ADMIN_AREAS = ['/account', '/dashboard', '/settings'] as const;

export function isAdminPath(pathname: string): boolean {
  return ADMIN_AREAS.some((area) => pathname === area || pathname.startsWith(`${area}/`));
}
