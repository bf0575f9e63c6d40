import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 12, item 7 (contract Amendments, "Errors"): only configured hosts are served (PUBLIC_ORIGIN,
// ALLOWED_HOSTS, the loopback names and the listening address); any other Host is a 400 in the envelope,
// so invitation links and the WeChat redirect_uri are never built from an unconfigured Host.

describe('with ALLOWED_HOSTS and no PUBLIC_ORIGIN', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ allowedHosts: ['admin.internal', '.corp.example', 'fixed.example:8443'] });
    admin = await t.adminToken();
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/settings/login',
      token: admin,
      payload: {
        registration: true,
        methods: ['password', 'wechat'],
        wechat_enabled: true,
        wechat_app_id: 'wx0123456789',
        wechat_app_secret: 'a-wechat-app-secret',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => t.close());

  it('answers 400 in the envelope, in the request language, for another Host', async () => {
    const res = await t.request({
      url: '/api/v1',
      headers: { host: 'evil.example', 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, message: 'This host name is not served here', data: null });
    const zh = await t.request({ url: '/api/v1', headers: { host: 'evil.example' } });
    expect(zh.json().message).toBe('不接受此主机名');
  });

  it('builds no invitation from an unconfigured Host and changes nothing', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM staff');
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/staff',
      token: admin,
      headers: { host: 'evil.example' },
      payload: { name: 'Mallory' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('evil.example');
    expect((await t.db.query('SELECT count(*)::int AS n FROM staff')).rows).toEqual(before.rows);
  });

  it('builds the invitation link from an allowed Host', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/staff',
      token: admin,
      headers: { host: 'admin.internal' },
      payload: { name: 'Hana' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(new URL(res.json().data.invitation_url).origin).toBe('http://admin.internal');
  });

  it('never builds the WeChat redirect_uri from an unconfigured Host', async () => {
    const evil = await t.request({
      url: '/api/v1/wechat/officialaccount/auth',
      headers: { host: 'evil.example' },
    });
    expect(evil.statusCode).toBe(400);
    const res = await t.request({
      url: '/api/v1/wechat/officialaccount/auth',
      headers: { host: 'admin.internal' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const redirect = new URL(new URL(res.json().data.url).searchParams.get('redirect_uri')!);
    expect(redirect.origin).toBe('http://admin.internal');
  });

  it.each([
    ['localhost:3000', 200],
    ['127.0.0.1:8080', 200],
    ['[::1]:3000', 200],
    ['LOCALHOST', 200],
    ['admin.internal:3000', 200],
    ['eu.corp.example', 200],
    ['fixed.example:8443', 200],
    ['fixed.example', 400],
    ['corp.example.evil.example', 400],
    ['localhost.evil.example', 400],
    ['admin.internal@evil.example', 400],
  ])('Host %j -> %i', async (host, status) => {
    const res = await t.request({ url: '/api/v1', headers: { host } });
    expect(res.statusCode).toBe(status);
  });
});

describe('behind TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true, publicOrigin: 'https://admin.example.com' });
  });
  afterAll(() => t.close());

  it('checks X-Forwarded-Host, the host the links would use', async () => {
    const evil = await t.request({ url: '/api/v1', headers: { 'x-forwarded-host': 'evil.example' } });
    expect(evil.statusCode).toBe(400);
    const ok = await t.request({ url: '/api/v1', headers: { 'x-forwarded-host': 'admin.example.com' } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('the listening address', () => {
  it('is accepted by default, another address is not', async () => {
    const t = await createTestApp({ host: '10.9.8.7' });
    try {
      expect((await t.request({ url: '/api/v1', headers: { host: '10.9.8.7:3000' } })).statusCode).toBe(200);
      expect((await t.request({ url: '/api/v1', headers: { host: '10.9.8.6:3000' } })).statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });
});
