/**
 * Returns `href` when it is a same-origin path (`/dashboard?x=1`), otherwise null, so a sign-in link such as
 * `/login?href=//evil.example` can never send the user to another site.
 *
 * Every layer of percent-encoding is checked, because the value may be decoded again by a router or a browser
 * before it is used; backslashes, whitespace and control characters are refused outright since URL parsers
 * treat `\` as `/` and silently drop tabs and newlines (`/\t/evil.example` parses as `//evil.example`).
 *
 * @example
 * navigate(safeHref(params.get('href')) ?? '/dashboard');
 */
export function safeHref(href: unknown): string | null {
  if (typeof href !== 'string' || href.length === 0 || href.length > 2048) return null;
  let layer = href;
  // A handful of rounds covers double/triple encoding; anything deeper is refused rather than trusted.
  for (let round = 0; round < 5; round += 1) {
    if (!isSafeLayer(layer)) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return null;
    }
    if (decoded === layer) return href;
    layer = decoded;
  }
  return null;
}

const BASE = 'http://same-origin.invalid';

function isSafeLayer(value: string): boolean {
  // Whitespace, control characters and backslashes: see the doc comment above.
  if (/[\s\\]/u.test(value) || hasControlCharacter(value)) return false;
  if (!value.startsWith('/')) return false;
  // `//host` is protocol-relative.
  if (value.startsWith('//')) return false;
  try {
    const url = new URL(value, BASE);
    return url.origin === BASE;
  } catch {
    return false;
  }
}

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
