import { QueryClient } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from './authProvider.ts';
import { getDefaultHeaders, setDefaultHeader } from './httpClient.ts';
import { getToken, setToken } from './token.ts';

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const staffProfile = {
  id: '1',
  username: 'li',
  name: 'Li Lei',
  staff: {
    id: '5',
    is_admin: 0,
    roles: [
      { id: '1', name: 'a', permissions: { menu_ids: ['system.users', 'system.users.staff'] } },
      { id: '2', name: 'b', permissions: { menu_ids: ['system.users.staff', 'system.settings'] } },
    ],
  },
};

describe('authProvider', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let client: QueryClient;
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    Cookies.remove('access_token', { path: '/' });
  });

  it('login posts the credentials with remember and stores the token', async () => {
    const set = vi.spyOn(Cookies, 'set');
    fetchMock.mockResolvedValue(reply({ code: 200, data: { access_token: 'new-token', expires_at: null } }));
    await createAuthProvider(client).login({ username: 'li', password: 'pw', remember: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/login');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'li', password: 'pw', remember: true });
    expect(getToken()).toBe('new-token');
    expect(set).toHaveBeenCalledWith(
      'access_token',
      'new-token',
      expect.objectContaining({ expires: 30, path: '/' }),
    );
  });

  it('register posts the payload and stores the token in a session cookie', async () => {
    const set = vi.spyOn(Cookies, 'set');
    client.setQueryData(['profile', 'avatar'], { id: '9', username: 'someone-else' });
    fetchMock.mockResolvedValue(reply({ code: 200, data: { access_token: 'reg-token', expires_at: null } }));
    const params = {
      username: 'newbie',
      email: 'new@example.com',
      captcha: '123456',
      password: 'pw-long-enough',
      password_confirmation: 'pw-long-enough',
    };
    await createAuthProvider(client).register(params);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/register');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual(params);
    expect(getToken()).toBe('reg-token');
    expect(set).toHaveBeenCalledWith(
      'access_token',
      'reg-token',
      expect.objectContaining({ expires: undefined }),
    );
    expect(client.getQueryData(['profile', 'avatar'])).toBeUndefined();
  });

  it('register rejects with the server errors and stores nothing', async () => {
    fetchMock.mockResolvedValue(
      reply({ code: 422, message: 'Invalid', data: null, errors: { captcha: ['Wrong code'] } }, 422),
    );
    await expect(
      createAuthProvider(client).register({
        username: 'newbie',
        phone: '13800000000',
        captcha: '000000',
        password: 'pw-long-enough',
        password_confirmation: 'pw-long-enough',
      }),
    ).rejects.toMatchObject({ status: 422, errors: { captcha: ['Wrong code'] } });
    expect(getToken()).toBeUndefined();
  });

  it('login rejects with the server message and stores nothing', async () => {
    fetchMock.mockResolvedValue(reply({ code: 422, message: 'Wrong username or password', data: null }, 422));
    await expect(createAuthProvider(client).login({ username: 'li', password: 'x' })).rejects.toThrow(
      'Wrong username or password',
    );
    expect(getToken()).toBeUndefined();
  });

  it('logout revokes on the server, then clears the user, the token and the policy headers', async () => {
    setToken('tok', false);
    setDefaultHeader('Policy-Name', 'p');
    setDefaultHeader('Policy-Id', '1');
    client.setQueryData(['profile', 'avatar'], { id: '1' });
    fetchMock.mockResolvedValue(reply({ code: 200, data: null }));
    await createAuthProvider(client).logout({});
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1/user/logout');
    expect(getToken()).toBeUndefined();
    expect(getDefaultHeaders()).toEqual({});
    expect(client.getQueryData(['profile', 'avatar'])).toBeUndefined();
  });

  it('permissions are the union of the roles menu_ids', async () => {
    setToken('tok', false);
    fetchMock.mockResolvedValue(reply({ code: 200, data: staffProfile }));
    const permissions = await createAuthProvider(client).getPermissions!({});
    expect([...permissions].sort()).toEqual(['system.settings', 'system.users', 'system.users.staff']);
    expect(String(fetchMock.mock.calls[0]![0])).toContain('include=avatar%2Cstaff.roles');
  });

  it('an administrator holds the wildcard', async () => {
    setToken('tok', false);
    fetchMock.mockResolvedValue(
      reply({ code: 200, data: { ...staffProfile, staff: { id: '5', is_admin: 1, roles: [] } } }),
    );
    await expect(createAuthProvider(client).getPermissions!({})).resolves.toEqual(['*']);
  });

  it('getIdentity reads the cached profile', async () => {
    setToken('tok', false);
    fetchMock.mockResolvedValue(reply({ code: 200, data: staffProfile }));
    const provider = createAuthProvider(client);
    await expect(provider.getIdentity!()).resolves.toMatchObject({ id: '1', fullName: 'Li Lei' });
    await provider.getPermissions!({});
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a failed profile load deletes the token', async () => {
    setToken('tok', false);
    fetchMock.mockResolvedValue(reply({ code: 500, message: 'boom', data: null }, 500));
    await expect(createAuthProvider(client).getIdentity!()).rejects.toThrow();
    expect(getToken()).toBeUndefined();
  });

  it('checkAuth passes only with a token', async () => {
    const provider = createAuthProvider(client);
    await expect(provider.checkAuth({})).rejects.toThrow();
    setToken('tok', false);
    await expect(provider.checkAuth({})).resolves.toBeUndefined();
  });
});
