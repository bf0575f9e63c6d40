import { describe, expect, it } from 'vitest';
import { safeHref } from './safeHref.ts';

describe('safeHref', () => {
  it.each([
    '/dashboard',
    '/settings/staff?page=2&search=name%3Ali',
    '/settings/roles/12#permissions',
    '/account/profile',
    '/',
  ])('keeps the same-origin path %s', (href) => {
    expect(safeHref(href)).toBe(href);
  });

  it.each([
    ['protocol-relative', '//evil.example'],
    ['triple slash', '///evil.example'],
    ['slash backslash', '/\\evil.example'],
    ['double backslash', '\\\\evil.example'],
    ['backslash slash', '\\/evil.example'],
    ['absolute http', 'http://evil.example'],
    ['absolute https', 'https://evil.example/dashboard'],
    ['scheme without slashes', 'https:evil.example'],
    ['javascript', 'javascript:alert(1)'],
    ['mixed-case javascript', 'JaVaScRiPt:alert(1)'],
    ['javascript after a space', ' javascript:alert(1)'],
    ['data url', 'data:text/html,<script>alert(1)</script>'],
    ['encoded protocol-relative', '%2F%2Fevil.example'],
    ['half-encoded protocol-relative', '/%2Fevil.example'],
    ['lower-case encoding', '/%2fevil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['double-encoded protocol-relative', '%252F%252Fevil.example'],
    ['double-encoded backslash', '/%255Cevil.example'],
    ['encoded javascript', 'javascript%3Aalert(1)'],
    ['encoded absolute url', 'http%3A%2F%2Fevil.example'],
    ['tab inside', '/\t/evil.example'],
    ['newline inside', '/\n/evil.example'],
    ['encoded tab', '/%09/evil.example'],
    ['leading newline', '\n//evil.example'],
    ['leading space', ' //evil.example'],
    ['non-breaking space', '/\u00a0/evil.example'],
    ['relative host', 'evil.example'],
    ['broken encoding', '/%E0%A4%A'],
    ['empty', ''],
  ])('rejects %s (%j)', (_label, href) => {
    expect(safeHref(href)).toBeNull();
  });

  it('rejects values that are not strings', () => {
    expect(safeHref(undefined)).toBeNull();
    expect(safeHref(null)).toBeNull();
    expect(safeHref(['/dashboard'])).toBeNull();
  });
});
