import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToken, parentDomain, removeToken, setToken } from './token.ts';

describe('parentDomain', () => {
  it.each([
    ['admin.example.com', 'example.com'],
    ['a.b.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['localhost', undefined],
    ['127.0.0.1', undefined],
    ['::1', undefined],
  ])('%s -> %s', (host, expected) => {
    expect(parentDomain(host)).toBe(expected);
  });
});

describe('token cookie', () => {
  afterEach(() => {
    removeToken();
    vi.restoreAllMocks();
  });

  it('stores, reads and removes the token', () => {
    setToken('abc', false);
    expect(getToken()).toBe('abc');
    removeToken();
    expect(getToken()).toBeUndefined();
  });

  it('uses a 30-day cookie only when remember is set', () => {
    const set = vi.spyOn(Cookies, 'set');
    setToken('a', true);
    setToken('b', false);
    expect(set.mock.calls[0]?.[2]).toMatchObject({ expires: 30, path: '/' });
    expect(set.mock.calls[1]?.[2]).toMatchObject({ expires: undefined, path: '/' });
  });
});
