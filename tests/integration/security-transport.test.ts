import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 12, item 9: HSTS over TLS (here: behind TRUST_PROXY with X-Forwarded-Proto https), an Origin check
// that compares scheme and host, and the token cookie's domain setting handed to the front end.

describe('behind a TLS-terminating proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true, cookieDomain: 'host' });
  });
  afterAll(() => t.close());

  it('sends HSTS when the proxy says https, on API answers and errors alike', async () => {
    const res = await t.request({ url: '/api/v1', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=15552000');
    const missing = await t.request({ url: '/api/nope', headers: { 'x-forwarded-proto': 'https' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['strict-transport-security']).toBe('max-age=15552000');
  });

  it('sends no HSTS over plain http', async () => {
    const res = await t.request({ url: '/api/v1' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('marks the XSRF cookie Secure over https', async () => {
    const res = await t.request({ url: '/api/v1', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.secure).toBe(true);
  });

  it('accepts an https Origin on the https site', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/logout',
      headers: { 'x-forwarded-proto': 'https', origin: 'https://localhost', host: 'localhost' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('hands the cookie domain setting to the front end', async () => {
    const res = await t.request({ url: '/api/v1' });
    expect(res.json().data.config.cookie_domain).toBe('host');
  });
});

describe('without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-Proto (no HSTS on plain http)', async () => {
    const res = await t.request({ url: '/api/v1', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('refuses a state-changing call whose Origin has another scheme on the same host', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { origin: 'https://localhost:3000', host: 'localhost:3000' },
      payload: { username: 'admin', password: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 403, data: null });
  });

  it.each([
    ['http://localhost:3000', 422],
    ['http://localhost:3001', 403],
    ['http://localhost', 403],
    ['null', 403],
  ])('Origin %s on http://localhost:3000 -> %i', async (origin, status) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { origin, host: 'localhost:3000' },
      payload: { username: 'admin', password: 'not the password' },
    });
    expect(res.statusCode).toBe(status);
  });

  it('defaults the cookie domain to the parent domain (the spec)', async () => {
    const res = await t.request({ url: '/api/v1' });
    expect(res.json().data.config.cookie_domain).toBe('parent');
  });
});
