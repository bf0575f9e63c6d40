/**
 * @vitest-environment-options { "url": "https://admin.example.com/dashboard" }
 */
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureCookieDomain, setToken } from './token.ts';

// Issue 12, item 9: on an https page the token cookie is Secure; its domain follows COOKIE_DOMAIN.
describe('token cookie on an https page', () => {
  afterEach(() => {
    configureCookieDomain(undefined);
    vi.restoreAllMocks();
  });

  const options = (setting: string | undefined) => {
    configureCookieDomain(setting);
    const set = vi.spyOn(Cookies, 'set');
    setToken('abc', false);
    return set.mock.calls[0]![2];
  };

  it('is Secure and SameSite=Lax', () => {
    expect(options(undefined)).toMatchObject({ secure: true, sameSite: 'Lax' });
  });

  it.each([
    [undefined, 'example.com'],
    ['parent', 'example.com'],
    ['host', undefined],
    ['admin.example.com', 'admin.example.com'],
    ['.example.com', 'example.com'],
    ['other.example', undefined],
  ])('COOKIE_DOMAIN=%s -> domain %s', (setting, domain) => {
    expect(options(setting)?.domain).toBe(domain);
  });
});
