import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import enServer from '../../locales/en/auth-server.json';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorize, startFakeWechat, type FakeWechat } from '../helpers/fake-wechat.ts';

// The authorisation URL, WeChat's code errors, the state rules, the on/off switch and the OpenAPI entries.
let t: TestApp;
let wx: FakeWechat;
const E = enServer.wechat.errors;

beforeAll(async () => {
  wx = await startFakeWechat();
  t = await createTestApp({
    publicOrigin: 'http://admin.test',
    wechatOpenBase: wx.url,
    wechatApiBase: wx.url,
  });
  await setWechat(true);
});
afterAll(async () => {
  await t?.close();
  await wx?.close();
});

let ipSeq = 0;
function call(opts: InjectOptions & { token?: string }) {
  ipSeq += 1;
  const { headers, ...rest } = opts;
  return t.request({
    remoteAddress: `10.8.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`,
    ...rest,
    headers: { 'accept-language': 'en', ...headers },
  } as InjectOptions & { token?: string });
}

async function setWechat(enabled: boolean) {
  const res = await call({
    method: 'POST',
    url: '/api/v1/settings/login',
    token: await t.adminToken(),
    payload: { wechat_enabled: enabled, wechat_app_id: wx.appId, wechat_app_secret: wx.secret },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function startFlow(query = '') {
  const res = await call({ url: `/api/v1/wechat/officialaccount/auth${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'wechat_browser')!;
  return { ...(await authorize(res.json().data.url)), cookies: { wechat_browser: cookie.value } };
}

function login(flow: { code: string; state: string; cookies: Record<string, string> }) {
  return call({
    method: 'POST',
    url: '/api/v1/wechat/officialaccount/login',
    payload: { code: flow.code, state: flow.state },
    cookies: flow.cookies,
  });
}

function register(payload: Record<string, unknown>) {
  return call({ method: 'POST', url: '/api/v1/wechat/officialaccount/register', payload });
}

describe('GET auth', () => {
  it('answers the WeChat authorisation URL with a state bound to this browser by an httpOnly cookie', async () => {
    const res = await call({
      url: '/api/v1/wechat/officialaccount/auth?href=%2Fsettings%2Fstaff%3Fpage%3D2',
    });
    expect(res.statusCode).toBe(200);
    const url: string = res.json().data.url;
    const back = encodeURIComponent('http://admin.test/login?href=%2Fsettings%2Fstaff%3Fpage%3D2');
    expect(url).toMatch(
      new RegExp(
        `^${wx.url}/connect/oauth2/authorize\\?appid=${wx.appId}&redirect_uri=${back.replace(/[.?%]/g, '\\$&')}` +
          '&response_type=code&scope=snsapi_userinfo&state=[A-Za-z0-9_-]{32}#wechat_redirect$',
      ),
    );
    const cookie = res.cookies.find((c) => c.name === 'wechat_browser')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v1/wechat/officialaccount' });
    expect(cookie.maxAge).toBe(600);
    // Only hashes are stored.
    const state = new URL(url).searchParams.get('state')!;
    const { rows } = await t.db.query('SELECT * FROM wechat_states');
    expect(JSON.stringify(rows)).not.toContain(state);
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
  });

  it('drops a hostile href from the return URL', async () => {
    for (const href of ['//evil.example', 'https://evil.example', '/\\evil.example', '/a b']) {
      const res = await call({ url: `/api/v1/wechat/officialaccount/auth?href=${encodeURIComponent(href)}` });
      const redirect = new URL(new URL(res.json().data.url).searchParams.get('redirect_uri')!);
      expect(redirect.toString(), href).toBe('http://admin.test/login');
    }
  });
});

describe('codes and states', () => {
  it('answers a reused code and an invalid code with WeChat’s reason', async () => {
    wx.user = { openid: 'o-first', nickname: '小明' };
    const flow = await startFlow();
    expect((await login(flow)).statusCode).toBe(200);
    const reused = await login({ ...(await startFlow()), code: flow.code });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe(E.code_used);
    const invalid = await login({ ...(await startFlow()), code: 'no-such-code' });
    expect(invalid.json()).toMatchObject({ code: 422, message: E.invalid_code });
    const zh = await call({
      method: 'POST',
      url: '/api/v1/wechat/officialaccount/login',
      payload: { code: 'no-such-code', state: (await startFlow()).state },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.json().message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('refuses a reused, unknown, expired or other-browser state with 422, before asking WeChat', async () => {
    const flow = await startFlow();
    const before = wx.requests.length;
    const cases = [
      { ...flow, state: 'not-a-state' },
      { ...flow, cookies: {} },
      { ...flow, cookies: { wechat_browser: 'x'.repeat(43) } },
    ];
    for (const c of cases) {
      const res = await login(c);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(E.state_invalid);
    }
    // A state shown by another browser is burnt: the right browser cannot use it afterwards either.
    expect((await login(flow)).json().message).toBe(E.state_invalid);
    expect(wx.requests.length).toBe(before);

    const used = await startFlow();
    expect((await login(used)).statusCode).toBe(200);
    expect((await login({ ...used, code: wx.issueCode() })).json().message).toBe(E.state_invalid);

    const old = await startFlow();
    await t.db.query(`UPDATE wechat_states SET expires_at = now() - interval '1 second'`);
    expect((await login(old)).json().message).toBe(E.state_invalid);
  });
});

describe('switched off', () => {
  it('answers 404 for every public WeChat call and says so at start-up', async () => {
    const flow = await startFlow();
    await setWechat(false);
    expect((await call({ url: '/api/v1/wechat/officialaccount/auth' })).statusCode).toBe(404);
    expect((await login(flow)).statusCode).toBe(404);
    expect((await register({ ticket: 'x', username: 'someone' })).statusCode).toBe(404);
    expect((await call({ url: '/api/v1' })).json().data.config.wechat).toBe(false);
    await setWechat(true);
    expect((await call({ url: '/api/v1' })).json().data.config.wechat).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('documents every WeChat call', async () => {
    const doc = (await call({ url: '/api/docs' })).json();
    const base = '/api/v1/wechat/officialaccount';
    expect(Object.keys(doc.paths[`${base}/auth`])).toEqual(['get']);
    expect(doc.paths[`${base}/login`].post.summary).toBeTruthy();
    expect(doc.paths[`${base}/register`].post.requestBody).toBeDefined();
    expect(Object.keys(doc.paths[`${base}/identity`]).sort()).toEqual(['delete', 'get']);
  });
});
