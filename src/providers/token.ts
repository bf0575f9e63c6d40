import Cookies from 'js-cookie';

/** The cookie that carries the bearer token (spec 7: "a Bearer token header taken from a cookie"). */
export const TOKEN_COOKIE = 'access_token';
export const XSRF_COOKIE = 'XSRF-TOKEN';
const REMEMBER_DAYS = 30;

/**
 * The parent domain of a host (`admin.example.com` -> `example.com`) so sibling apps of the same site share the
 * session; undefined for localhost and IP addresses, where a domain attribute would make browsers drop the
 * cookie. Two-label public suffixes (`example.co.uk`) are not special-cased: the site's own host is used then.
 */
export function parentDomain(hostname: string): string | undefined {
  if (!hostname.includes('.') || /^[\d.]+$/.test(hostname) || hostname.includes(':')) return undefined;
  const labels = hostname.split('.');
  return labels.slice(-2).join('.');
}

/**
 * The token cookie's scope, from the server's COOKIE_DOMAIN (`GET /api/v1` `config.cookie_domain`): `parent`
 * (default: the parent domain, so sibling apps of the site share the session, and so does every other host
 * under that domain), `host` (this host only), or an explicit domain. See docs/operations.md.
 */
let cookieDomainSetting = 'parent';

export function configureCookieDomain(setting: string | undefined): void {
  cookieDomainSetting = setting?.trim().toLowerCase() || 'parent';
}

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

/** Stores the token: a 30-day cookie when `remember`, otherwise a session cookie; `Secure` on https pages. */
export function setToken(token: string, remember: boolean): void {
  Cookies.set(TOKEN_COOKIE, token, {
    ...cookieScope(),
    expires: remember ? REMEMBER_DAYS : undefined,
    sameSite: 'Lax',
    secure: window.location.protocol === 'https:',
  });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_COOKIE, cookieScope());
  // A cookie set before the domain attribute was used (or by another tool) would otherwise survive.
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
}

export function getXsrfToken(): string | undefined {
  return Cookies.get(XSRF_COOKIE) || undefined;
}

function cookieScope(): { path: string; domain?: string } {
  const host = window.location.hostname;
  const domain =
    cookieDomainSetting === 'host'
      ? undefined
      : cookieDomainSetting === 'parent'
        ? parentDomain(host)
        : explicitDomain(cookieDomainSetting, host);
  return domain ? { path: '/', domain } : { path: '/' };
}

/** An explicit domain, used only when this page is on it (a browser would refuse the cookie otherwise). */
function explicitDomain(setting: string, host: string): string | undefined {
  const domain = setting.replace(/^\./, '');
  return host === domain || host.endsWith(`.${domain}`) ? domain : undefined;
}
