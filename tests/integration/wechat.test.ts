import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { hashPassword } from '../../server/credentials/password.ts';
import { issueToken } from '../../server/credentials/tokens.ts';
import { ensureFirstAdmin } from '../../server/bootstrap.ts';
import { loadConfig } from '../../server/config.ts';
import { REDACT_PATHS } from '../../server/core/logger.ts';
import en from '../../locales/en/auth.json';
import enServer from '../../locales/en/auth-server.json';
import { ADMIN } from '../helpers/app.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { authorize, startFakeWechat, type FakeWechat } from '../helpers/fake-wechat.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// Built by hand (not createTestApp) so the pino output can be checked for secrets at the end.
const lines: string[] = [];
const responses: string[] = [];
const secrets: string[] = [];
let app: FastifyInstance;
let testDb: TestDb;
let wx: FakeWechat;
let smtp: TestSmtp;
let adminToken: string;
const PASSWORD = 'lunar-otter-plays-cello';
const E = enServer.wechat.errors;

beforeAll(async () => {
  wx = await startFakeWechat();
  smtp = await startSmtp();
  testDb = await createTestDb();
  await ensureFirstAdmin(testDb.db, ADMIN);
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, capture);
  const config = {
    ...loadConfig({ DATA_DIR: `/tmp/admin-wechat-${process.pid}` }),
    logToFile: false,
    distDir: '/nonexistent-dist',
    smtpUrl: smtp.url,
    publicOrigin: 'http://admin.test',
    wechatOpenBase: wx.url,
    wechatApiBase: wx.url,
  };
  app = await buildApp({ db: testDb.db, config, logger });
  await app.ready();
  const { rows } = await testDb.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [
    'admin',
  ]);
  adminToken = (await issueToken(testDb.db, { userId: rows[0]!.id, remember: false })).accessToken;
  secrets.push(wx.secret);
  await setWechat(true);
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
  await wx?.close();
  await smtp?.close();
});

let ipSeq = 0;
/** Each call comes from its own address, so the per-address ceilings never interfere between tests. */
async function call(opts: InjectOptions & { token?: string }) {
  const { token, headers, ...rest } = opts;
  ipSeq += 1;
  const res = await app.inject({
    remoteAddress: `10.7.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`,
    ...rest,
    headers: { 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  } as InjectOptions);
  responses.push(res.body, JSON.stringify(res.headers));
  return res;
}

function setWechat(enabled: boolean, extra: Record<string, unknown> = {}) {
  return call({
    method: 'POST',
    url: '/api/v1/settings/login',
    token: adminToken,
    payload: {
      registration: true,
      methods: ['password', 'wechat'],
      wechat_enabled: enabled,
      wechat_app_id: wx.appId,
      wechat_app_secret: wx.secret,
      ...extra,
    },
  });
}

/** GET auth, then the fake's consent page: the code + state WeChat hands back, and this browser's cookie. */
async function startFlow(query = '') {
  const res = await call({ url: `/api/v1/wechat/officialaccount/auth${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'wechat_browser')!;
  const { code, state, returnUrl } = await authorize(res.json().data.url);
  secrets.push(code);
  return {
    code,
    state,
    returnUrl,
    cookies: { wechat_browser: cookie.value },
    url: res.json().data.url as string,
  };
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

async function profileOf(token: string) {
  const res = await call({ url: '/api/v1/user/profile', token });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: string; username: string; email: string | null };
}

async function count(table: string): Promise<number> {
  const { rows } = await testDb.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]!.n);
}

describe('first sign-in, registration and repeat sign-in', () => {
  it('gives an unknown WeChat user a ticket with nickname and avatar, then registers a new account', async () => {
    wx.user = { openid: 'o-first', nickname: '小明', headimgurl: 'https://thirdwx.qlogo.cn/mmopen/a/132' };
    const flow = await startFlow('?href=%2Fdashboard');
    expect(flow.returnUrl.pathname).toBe('/login');
    expect(flow.returnUrl.searchParams.get('href')).toBe('/dashboard');
    const res = await login(flow);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ nickname: '小明', avatar: 'https://thirdwx.qlogo.cn/mmopen/a/132' });
    expect(data.registration).toBe(true);
    expect(data.registration_ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.access_token).toBeUndefined();
    secrets.push(data.registration_ticket);
    const { rows } = await testDb.db.query('SELECT * FROM wechat_tickets');
    expect(JSON.stringify(rows)).not.toContain(data.registration_ticket);

    const bad = await register({ ticket: data.registration_ticket, username: '1bad' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.username).toBeDefined();
    const done = await register({ ticket: data.registration_ticket, username: 'xiaoming' });
    expect(done.statusCode, done.body).toBe(200);
    const token = done.json().data.access_token;
    secrets.push(token);
    expect(await profileOf(token)).toMatchObject({ username: 'xiaoming', email: null });
    // The ticket worked once.
    const again = await register({ ticket: data.registration_ticket, username: 'xiaoming2' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(E.ticket_invalid);
  });

  it('signs the linked WeChat user straight in the next time, with a new token each time', async () => {
    wx.user = { openid: 'o-first', nickname: '小明2', headimgurl: 'https://thirdwx.qlogo.cn/mmopen/b/132' };
    const first = await login(await startFlow());
    expect(first.statusCode, first.body).toBe(200);
    expect(Object.keys(first.json().data).sort()).toEqual(['access_token', 'expires_at']);
    const second = await login(await startFlow('?remember=1'));
    const a = first.json().data;
    const b = second.json().data;
    secrets.push(a.access_token, b.access_token);
    expect(a.access_token).not.toBe(b.access_token);
    expect(a.expires_at).toBeNull();
    expect((Date.parse(b.expires_at) - Date.now()) / 86_400_000).toBeGreaterThan(29.9);
    expect((await profileOf(b.access_token)).username).toBe('xiaoming');
    const { rows } = await testDb.db.query<{ nickname: string }>('SELECT nickname FROM wechat_identities');
    expect(rows.map((r) => r.nickname)).toContain('小明2');
    const acts = await testDb.db.query<{ action: string; changes: { method?: string } }>(
      `SELECT action, changes FROM activity_logs WHERE action IN ('auth.login', 'auth.register')`,
    );
    expect(acts.rows.filter((r) => r.changes?.method === 'wechat').length).toBeGreaterThanOrEqual(3);
  });

  it('registers with a password and an email proven by a code', async () => {
    wx.user = { openid: 'o-mail', unionid: 'u-mail', nickname: 'Mail' };
    const ticket = (await login(await startFlow())).json().data.registration_ticket;
    secrets.push(ticket);
    const sent = await call({
      method: 'POST',
      url: '/api/v1/user/captcha',
      payload: { channel: 'email', to: 'mail@example.com', scene: 'register' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = await smtp.nextCode('mail@example.com');
    secrets.push(code);
    const body = { ticket, username: 'mailer', email: 'mail@example.com', password: PASSWORD };
    const mismatch = await register({ ...body, password_confirmation: 'other', captcha: code });
    expect(mismatch.statusCode).toBe(422);
    const wrong = await register({ ...body, password_confirmation: PASSWORD, captcha: '000000' });
    expect(wrong.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
    // That miss burnt nothing but a try; a new code is needed after 60 s, so use the same code again.
    const ok = await register({ ...body, password_confirmation: PASSWORD, captcha: code });
    expect(ok.statusCode, ok.body).toBe(200);
    secrets.push(ok.json().data.access_token);
    const password = await call({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: 'mail@example.com', password: PASSWORD },
    });
    expect(password.statusCode).toBe(200);
    // The same WeChat user by unionid (say, through another official account with another openid).
    wx.user = { openid: 'o-mail-other-app', unionid: 'u-mail', nickname: 'Mail' };
    const byUnion = await login(await startFlow());
    expect((await profileOf(byUnion.json().data.access_token)).username).toBe('mailer');
  });
});

describe('linking to an existing account', () => {
  it('refuses a wrong password, links with the right one, then signs that account in', async () => {
    await testDb.db.query(
      `INSERT INTO users (username, name, email, password_hash) VALUES ('linda', 'Linda', 'linda@example.com', $1)`,
      [await hashPassword(PASSWORD)],
    );
    wx.user = { openid: 'o-linda', nickname: 'Linda WX' };
    const ticket = (await login(await startFlow())).json().data.registration_ticket;
    secrets.push(ticket);
    const wrong = await register({ ticket, link: { username: 'linda', password: 'not-her-password' } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ username: [en.failed] });
    expect(await count('wechat_identities WHERE nickname = $$Linda WX$$')).toBe(0);
    const right = await register({ ticket, link: { username: 'linda@example.com', password: PASSWORD } });
    expect(right.statusCode, right.body).toBe(200);
    secrets.push(right.json().data.access_token);
    expect((await profileOf(right.json().data.access_token)).username).toBe('linda');
    const next = await login(await startFlow());
    expect((await profileOf(next.json().data.access_token)).username).toBe('linda');

    // Another WeChat user cannot be linked to an account that already has one.
    wx.user = { openid: 'o-linda-2', nickname: 'Second' };
    const other = (await login(await startFlow())).json().data.registration_ticket;
    const taken = await register({ ticket: other, link: { username: 'linda', password: PASSWORD } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(E.already_linked);
  });

  it("counts linking in the account's sign-in ceiling; the owner's known device is let through (issue 27)", async () => {
    await testDb.db.query(`INSERT INTO users (username, name, password_hash) VALUES ('lex', 'Lex', $1)`, [
      await hashPassword(PASSWORD),
    ]);
    const signIn = (password: string, cookies?: Record<string, string>) =>
      call({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'lex', password }, cookies });
    const first = await signIn(PASSWORD);
    const device = first.cookies.find((c) => c.name === 'login_device')!.value;
    for (let i = 0; i < 11; i++) await signIn(`stranger-${i}`);
    wx.user = { openid: 'o-lex', nickname: 'Lex WX' };
    const ticket = (await login(await startFlow())).json().data.registration_ticket;
    secrets.push(ticket);
    const stranger = await register({ ticket, link: { username: 'lex', password: PASSWORD } });
    expect(stranger.statusCode).toBe(429);
    const owner = await call({
      method: 'POST',
      url: '/api/v1/wechat/officialaccount/register',
      payload: { ticket, link: { username: 'lex', password: PASSWORD } },
      cookies: { login_device: device },
    });
    expect(owner.statusCode, owner.body).toBe(200);
    secrets.push(owner.json().data.access_token);
  });

  it('kills a ticket after 5 wrong passwords', async () => {
    wx.user = { openid: 'o-guess', nickname: 'Guess' };
    const ticket = (await login(await startFlow())).json().data.registration_ticket;
    for (let i = 0; i < 5; i++) {
      const res = await register({ ticket, link: { username: `nobody${i}`, password: 'wrong-password' } });
      expect(res.statusCode).toBe(422);
    }
    const res = await register({ ticket, link: { username: 'linda', password: PASSWORD } });
    expect(res.json().message).toBe(E.ticket_invalid);
  });
});

describe('set-up and account problems', () => {
  it('reports a wrong app secret as a set-up problem, without echoing the secret', async () => {
    await setWechat(true, { wechat_app_secret: 'a-wrong-secret-value' });
    secrets.push('a-wrong-secret-value');
    const res = await login(await startFlow());
    expect(res.json()).toMatchObject({ code: 422, message: E.misconfigured });
    await setWechat(true);
  });

  it('refuses a disabled account', async () => {
    wx.user = { openid: 'o-linda', nickname: 'Linda WX' };
    await testDb.db.query(`UPDATE users SET state = false WHERE username = 'linda'`);
    const res = await login(await startFlow());
    expect(res.json()).toMatchObject({ code: 422, message: E.disabled });
    await testDb.db.query(`UPDATE users SET state = true WHERE username = 'linda'`);
  });
});

describe('secrets', () => {
  it('never puts the app secret, codes, tickets or tokens in a response, a log line or the activity log', async () => {
    const { rows } = await testDb.db.query('SELECT changes FROM activity_logs');
    const stored = JSON.stringify(rows);
    const logText = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    // WeChat's own access tokens (seen only by the fake) must not leak either.
    const wechatTokens = wx.requests.map((r) => /access_token=([^&]+)/.exec(r)?.[1]).filter(Boolean);
    for (const secret of [...secrets, ...(wechatTokens as string[])]) {
      expect(logText.includes(secret), `log holds ${secret.slice(0, 6)}…`).toBe(false);
      expect(stored.includes(secret)).toBe(false);
    }
    const body = responses.join('\n');
    for (const secret of [wx.secret, 'a-wrong-secret-value', ...(wechatTokens as string[])]) {
      expect(body.includes(secret)).toBe(false);
    }
  });
});
