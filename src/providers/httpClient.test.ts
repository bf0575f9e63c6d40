import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { httpClient, sessionExpiry, setDefaultHeader } from './httpClient.ts';
import { isHttpError } from './httpError.ts';
import { getToken } from './token.ts';

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('httpClient', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    Cookies.remove('access_token', { path: '/' });
    Cookies.remove('XSRF-TOKEN', { path: '/' });
  });

  it('calls /api/<path> with JSON, locale, bearer and XSRF headers and returns data', async () => {
    localStorage.setItem('locale', 'en');
    Cookies.set('access_token', 'tok', { path: '/' });
    Cookies.set('XSRF-TOKEN', 'xs', { path: '/' });
    fetchMock.mockResolvedValue(reply({ code: 200, data: { id: '1' } }));

    await expect(
      httpClient('v1/user/users', { method: 'POST', body: { a: 1 }, query: { page: 2, x: null } }),
    ).resolves.toEqual({ id: '1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/users?page=2');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toMatchObject({
      Accept: 'application/json',
      'Accept-Language': 'en',
      Authorization: 'Bearer tok',
      'X-XSRF-TOKEN': 'xs',
      'Content-Type': 'application/json',
    });
  });

  it('sends zh-CN when no locale is stored and no Authorization without a token', async () => {
    fetchMock.mockResolvedValue(reply({ code: 200, data: null }));
    await httpClient('v1');
    const headers = fetchMock.mock.calls[0]![1]?.headers as Record<string, string>;
    expect(headers['Accept-Language']).toBe('zh-CN');
    expect(headers.Authorization).toBeUndefined();
  });

  it('rejects other codes with an HttpError carrying status, message and field errors', async () => {
    fetchMock.mockResolvedValue(
      reply(
        {
          code: 422,
          message: 'The given data was invalid',
          data: null,
          errors: { email: ['Invalid email'] },
        },
        422,
      ),
    );
    const error = await httpClient('v1/user/register', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(isHttpError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 422,
      message: 'The given data was invalid',
      errors: { email: ['Invalid email'] },
    });
  });

  it('uses the envelope code even when HTTP says 200', async () => {
    fetchMock.mockResolvedValue(reply({ code: 403, message: 'No Permission', data: null }));
    await expect(httpClient('v1/x')).rejects.toMatchObject({ status: 403, message: 'No Permission' });
  });

  it('on 401 deletes the token and reloads', async () => {
    Cookies.set('access_token', 'old', { path: '/' });
    const expired = vi.spyOn(sessionExpiry, 'onExpired').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(reply({ code: 401, message: 'Please sign in first', data: null }, 401));
    await expect(httpClient('v1/user/profile')).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeUndefined();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not reload on 401 when no token was sent (a failed sign-in keeps its message)', async () => {
    const expired = vi.spyOn(sessionExpiry, 'onExpired').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(reply({ code: 401, message: 'Wrong username or password', data: null }, 401));
    await expect(httpClient('v1/user/login', { method: 'POST', body: {} })).rejects.toMatchObject({
      message: 'Wrong username or password',
    });
    expect(expired).not.toHaveBeenCalled();
  });

  it('rejects non-JSON failures with the HTTP status', async () => {
    fetchMock.mockResolvedValue(new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    await expect(httpClient('v1')).rejects.toMatchObject({ status: 502 });
  });

  it('sends default headers until they are cleared', async () => {
    fetchMock.mockImplementation(async () => reply({ code: 200, data: null }));
    setDefaultHeader('Policy-Id', '9');
    await httpClient('v1');
    setDefaultHeader('Policy-Id', null);
    await httpClient('v1');
    expect(fetchMock.mock.calls[0]![1]?.headers).toMatchObject({ 'Policy-Id': '9' });
    expect(fetchMock.mock.calls[1]![1]?.headers).not.toHaveProperty('Policy-Id');
  });
});
