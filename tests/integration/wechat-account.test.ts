import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { WECHAT_TIMEOUT_MS } from '../../server/modules/wechat/client.ts';
import enServer from '../../locales/en/auth-server.json';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorize, startFakeWechat, type FakeWechat } from '../helpers/fake-wechat.ts';

// WeChat unreachable (refused, timed out, busy) and the account area's identity calls.
let t: TestApp;
let wx: FakeWechat;
const E = enServer.wechat.errors;
const PASSWORD = 'lunar-otter-plays-cello';
const TABLES = ['users', 'wechat_identities', 'wechat_tickets', 'access_tokens', 'activity_logs'];

beforeAll(async () => {
  wx = await startFakeWechat();
  t = await createTestApp({ wechatOpenBase: wx.url, wechatApiBase: wx.url });
  await enable(t, wx);
});
afterAll(async () => {
  await t?.close();
  await wx?.close();
});

async function enable(app: TestApp, fake: FakeWechat) {
  const res = await app.request({
    method: 'POST',
    url: '/api/v1/settings/login',
    token: await app.adminToken(),
    payload: { wechat_enabled: true, wechat_app_id: fake.appId, wechat_app_secret: fake.secret },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function startFlow(app: TestApp) {
  const res = await app.request({ url: '/api/v1/wechat/officialaccount/auth' });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'wechat_browser')!;
  return { ...(await authorize(res.json().data.url)), cookies: { wechat_browser: cookie.value } };
}

function login(app: TestApp, flow: { code: string; state: string; cookies: Record<string, string> }) {
  return app.request({
    method: 'POST',
    url: '/api/v1/wechat/officialaccount/login',
    payload: { code: flow.code, state: flow.state },
    cookies: flow.cookies,
    headers: { 'accept-language': 'en' },
  });
}

async function counts(app: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await app.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
    out[table] = Number(rows[0]!.n);
  }
  return out;
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('WeChat unreachable', () => {
  it('answers 503 when WeChat refuses the connection, writes nothing, and the state stays usable', async () => {
    const port = await closedPort();
    const down = await createTestApp({ wechatOpenBase: wx.url, wechatApiBase: `http://127.0.0.1:${port}` });
    try {
      await enable(down, wx);
      wx.user = { openid: 'o-down', nickname: 'Down' };
      const flow = await startFlow(down);
      const before = await counts(down);
      const res = await login(down, flow);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 503, message: E.unavailable, data: null });
      expect(await counts(down)).toEqual(before);
      const { rows } = await down.db.query('SELECT 1 FROM wechat_states WHERE consumed_at IS NULL');
      expect(rows.length).toBe(1);
    } finally {
      await down.close();
    }
  });

  it(
    'answers 503 when WeChat does not answer in time, and for its "system busy"',
    async () => {
      wx.user = { openid: 'o-slow', nickname: 'Slow' };
      const flow = await startFlow(t);
      const before = await counts(t);
      wx.mode = 'hang';
      const started = Date.now();
      const res = await login(t, flow);
      wx.mode = 'normal';
      expect(res.statusCode).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(WECHAT_TIMEOUT_MS - 100);
      expect(await counts(t)).toEqual(before);

      wx.mode = 'busy';
      const busy = await login(t, await startFlow(t));
      wx.mode = 'normal';
      expect(busy.statusCode).toBe(503);
      expect(await counts(t)).toEqual(before);
      // The same state and code work once WeChat is back.
      const retried = await login(t, flow);
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json().data.registration_ticket).toBeTruthy();
    },
    WECHAT_TIMEOUT_MS + 15_000,
  );

  it('refuses a snapshot-page (virtual) WeChat user', async () => {
    wx.mode = 'snapshot';
    const res = await login(t, await startFlow(t));
    wx.mode = 'normal';
    expect(res.json()).toMatchObject({ code: 422, message: E.snapshot_user });
  });
});

describe('account identity', () => {
  async function signUp(openid: string, body: Record<string, unknown>) {
    wx.user = { openid, nickname: `WX ${openid}`, headimgurl: 'https://thirdwx.qlogo.cn/x/132' };
    const ticket = (await login(t, await startFlow(t))).json().data.registration_ticket;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/wechat/officialaccount/register',
      payload: { ticket, ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.access_token as string;
  }
  const identity = (token: string) => t.request({ url: '/api/v1/wechat/officialaccount/identity', token });
  const unlink = (token: string) =>
    t.request({
      method: 'DELETE',
      url: '/api/v1/wechat/officialaccount/identity',
      token,
      headers: { 'accept-language': 'en' },
    });

  it('shows the linked identity; refuses to unlink an account without a password', async () => {
    const token = await signUp('o-nopass', { username: 'nopass' });
    const res = await identity(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      enabled: true,
      has_password: false,
      identity: { nickname: 'WX o-nopass', avatar: 'https://thirdwx.qlogo.cn/x/132' },
    });
    expect(Object.keys(res.json().data.identity).sort()).toEqual(['avatar', 'linked_at', 'nickname']);
    const refused = await unlink(token);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(E.unlink_needs_password);
    expect((await identity(token)).json().data.identity).not.toBeNull();
  });

  it('unlinks when the account has a password; the WeChat user then gets a ticket again', async () => {
    const token = await signUp('o-withpass', {
      username: 'withpass',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect((await identity(token)).json().data.has_password).toBe(true);
    const res = await unlink(token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await identity(token)).json().data.identity).toBeNull();
    expect((await unlink(token)).statusCode).toBe(404);
    const { rows } = await t.db.query(`SELECT 1 FROM activity_logs WHERE action = 'auth.wechat_unlink'`);
    expect(rows.length).toBe(1);
    wx.user = { openid: 'o-withpass', nickname: 'again' };
    expect((await login(t, await startFlow(t))).json().data.registration_ticket).toBeTruthy();
  });

  it('needs a signed-in user', async () => {
    expect((await t.request({ url: '/api/v1/wechat/officialaccount/identity' })).statusCode).toBe(401);
    const del = await t.request({ method: 'DELETE', url: '/api/v1/wechat/officialaccount/identity' });
    expect(del.statusCode).toBe(401);
  });

  it('refuses a new account when registration is closed, but still links an existing one', async () => {
    await t.db.query(`INSERT INTO users (username, name, password_hash) VALUES ('olduser', 'Old', $1)`, [
      await hashPassword(PASSWORD),
    ]);
    await t.request({
      method: 'POST',
      url: '/api/v1/settings/login',
      token: await t.adminToken(),
      payload: { registration: false, wechat_enabled: true, wechat_app_id: wx.appId },
    });
    wx.user = { openid: 'o-closed', nickname: 'Closed' };
    const data = (await login(t, await startFlow(t))).json().data;
    expect(data.registration).toBe(false);
    const post = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/wechat/officialaccount/register', payload });
    expect((await post({ ticket: data.registration_ticket, username: 'closed' })).statusCode).toBe(403);
    const linked = await post({
      ticket: data.registration_ticket,
      link: { username: 'olduser', password: PASSWORD },
    });
    expect(linked.statusCode, linked.body).toBe(200);
  });
});
