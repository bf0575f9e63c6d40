import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import zh from '../../locales/zh-CN/auth.json';
import zhServer from '../../locales/zh-CN/auth-server.json';
import { freePort } from '../../scripts/lib/pg-cluster.ts';
import { authorize, startFakeWechat, type FakeWechat } from '../helpers/fake-wechat.ts';
import { launchBrowser } from './helpers/browser.ts';
import { eventually, giveUp } from '../helpers/eventually.ts';

// The whole WeChat redirect round trip in Chromium, with the fake WeChat standing in for open.weixin.qq.com
// and api.weixin.qq.com. The shared e2e server knows no WECHAT_* bases, so this file starts its own server
// (the built app from the global setup) after the fake, pointed at it.
const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { username: 'admin', password: 'e2e-wechat-admin-password' };
/** How long a page may take to show what it loads (expect.poll's own default, 1 s, is short under load). */
const POLL = { timeout: 15_000 };
let wx: FakeWechat;
let server: ChildProcess | null = null;
let dataDir = '';
let baseURL = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  wx = await startFakeWechat();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-e2e-wechat-'));
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(ROOT, 'dist'),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    LOG_TO_FILE: '0',
    WECHAT_OPEN_BASE: wx.url,
    WECHAT_API_BASE: wx.url,
  };
  delete env.DATABASE_URL;
  const out = fs.openSync(path.join(dataDir, 'server.out'), 'a');
  // server/main.ts rather than scripts/start.ts: the global setup has built dist/ already, and a rebuild here
  // would race with files being edited.
  server = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  await waitForReady();
  await enableWechat();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  const child = server;
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
  await wx?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  context = await browser.newContext({ baseURL, locale: 'en-US' });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

async function waitForReady(): Promise<void> {
  await eventually(
    async () => {
      if (server?.exitCode !== null) throw giveUp(new Error(`server exited: ${serverOutput()}`));
      const res = await fetch(`${baseURL}/api/health/ready`); // rejects while it is not listening yet
      if (!res.ok) throw new Error(`ready answered ${res.status}`);
    },
    { timeoutMs: 90_000, intervalMs: 250, what: 'the server to be ready' },
  ).catch((err: unknown) => {
    throw new Error(`server not ready: ${serverOutput()}`, { cause: err });
  });
}

function serverOutput(): string {
  const file = path.join(dataDir, 'server.out');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').slice(-3000) : '';
}

/** As the administrator, over the API: turn WeChat sign-in on with the fake's app id and secret. */
async function enableWechat(): Promise<void> {
  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${baseURL}/api/v1/user/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(ADMIN),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const res = await fetch(`${baseURL}/api/v1/settings/login`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({
      registration: true,
      methods: ['password', 'wechat'],
      wechat_enabled: true,
      wechat_app_id: wx.appId,
      wechat_app_secret: wx.secret,
    }),
  });
  if (!res.ok) throw new Error(`enabling WeChat failed: ${res.status} ${await res.text()}`);
}

describe('WeChat sign-in round trip', () => {
  test('first visit: button -> WeChat consent -> back to /login -> new account -> the href page', async () => {
    wx.user = { openid: 'o-e2e-first', nickname: '微信小明' };
    await page.goto('/login?href=%2Faccount%2Fprofile');
    await page.getByRole('button', { name: zh.wechat.button }).click();
    // The fake consents at once and sends the browser back with code + state.
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('code'));
    expect(new URL(page.url()).searchParams.get('href')).toBe('/account/profile');
    await expect
      .poll(
        () =>
          page
            .getByText(/微信小明/)
            .first()
            .isVisible(),
        POLL,
      )
      .toBe(true);
    await page.getByRole('textbox', { name: zh.fields.username }).fill('wxfirst');
    await page.getByRole('button', { name: zh.wechat.register.submit_new }).click();
    await page.waitForURL((url) => url.pathname === '/account/profile');
    await expect
      .poll(
        () => page.getByText(zh.wechat.account.linked.replace('{{nickname}}', '微信小明')).isVisible(),
        POLL,
      )
      .toBe(true);
    // Without a password the account cannot unlink (it could not sign in again).
    expect(await page.getByText(zh.wechat.account.needs_password).isVisible()).toBe(true);
  });

  test('next visit: the linked WeChat user is signed straight in', async () => {
    wx.user = { openid: 'o-e2e-first', nickname: '微信小明' };
    await page.goto('/login?href=%2Faccount%2Fprofile');
    await page.getByRole('button', { name: zh.wechat.button }).click();
    await page.waitForURL((url) => url.pathname === '/account/profile');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'access_token')?.value).toBeTruthy();
    // The state cookie is httpOnly and scoped to the WeChat calls.
    const bound = cookies.find((c) => c.name === 'wechat_browser');
    expect(bound === undefined || (bound.httpOnly && bound.path === '/api/v1/wechat/officialaccount')).toBe(
      true,
    );
  });

  test('a return URL replayed in another browser is refused', async () => {
    wx.user = { openid: 'o-e2e-replay', nickname: 'Replay' };
    const res = await fetch(`${baseURL}/api/v1/wechat/officialaccount/auth`);
    const { code, state } = await authorize(((await res.json()) as { data: { url: string } }).data.url);
    await page.goto(`/login?code=${code}&state=${state}`);
    await expect
      .poll(() => page.getByRole('alert').textContent(), POLL)
      .toBe(zhServer.wechat.errors.state_invalid);
    await page.getByRole('link', { name: zh.wechat.back_to_login }).click();
    await expect
      .poll(() => page.getByRole('button', { name: zh.wechat.button }).isVisible(), POLL)
      .toBe(true);
  });
});
