import { safeHref } from '../../lib/safeHref.ts';

/**
 * `path` carrying the sign-in return address along, so moving between the sign-in, register and reset pages
 * keeps it; an unsafe `href` is dropped. Example: `<Link to={withHref('/register', params.get('href'))} />`.
 */
export function withHref(path: string, href: string | null): string {
  const safe = safeHref(href);
  return safe ? `${path}?href=${encodeURIComponent(safe)}` : path;
}
