/**
 * The settings layout is addressed by two URL segments (`/settings/<channel>`): the menu entry of
 * `/settings/staff/12/edit` is `/settings/staff`, and `/settings` itself is the general page.
 */
export function activeMenuPath(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean).slice(0, 2);
  return `/${segments.join('/')}`;
}
