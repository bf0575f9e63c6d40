import { safeHref } from '../../lib/safeHref.ts';

/**
 * `path` carrying the sign-in return address (and a staff invitation) along, so moving between the sign-in,
 * register and reset pages keeps them; an unsafe `href` is dropped.
 * Example: `<Link to={withHref('/register', params.get('href'), params.get('invitation'))} />`.
 */
export function withHref(path: string, href: string | null, invitation: string | null = null): string {
  const query = new URLSearchParams();
  const safe = safeHref(href);
  if (safe) query.set('href', safe);
  if (invitation) query.set('invitation', invitation);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
