import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import appZh from '../../locales/zh-CN/app.json';
import authZh from '../../locales/zh-CN/auth.json';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.ts';
import { apiData, apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 31, item 4 in the browser: a real OpenID provider (oidc-provider) on loopback, its own login page, and
// the sign-in page's button; then linking a provider from the account area.
const TIMEOUT = 45_000;
const PASSWORD = 'lunar-otter-plays-cello';

let browser: Browser;
let context: BrowserContext | null = null;
let idp: TestIssuer;
let adminToken: string;

beforeAll(async () => {
  browser = await launchBrowser();
  idp = await startIssuer({
    redirectUris: ['corp', 'link'].map((id) => `${baseURL()}/api/v1/oidc/${id}/callback`),
  });
  const { username, password } = adminCredentials();
  adminToken = await apiSignIn(baseURL(), username, password);
  const current = (await apiData(baseURL(), 'GET', 'v1/settings/login', { token: adminToken }))
    .data as Record<string, unknown>;
  delete current.wechat_app_secret_set;
  const provider = (id: string, label: string, extra = {}) => ({
    id,
    label,
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    ...extra,
  });
  const saved = await apiFetch(baseURL(), 'POST', 'v1/settings/login', {
    token: adminToken,
    body: {
      ...current,
      oidc_providers: [provider('corp', 'Corp SSO', { auto_create: true }), provider('link', 'Partner ID')],
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
});
afterEach(async () => {
  await context?.close();
  context = null;
});
afterAll(async () => {
  await browser?.close();
  await idp?.close();
});

async function open(viewport = { width: 1280, height: 800 }): Promise<Page> {
  context = await newContext(browser, { viewport });
  context.setDefaultTimeout(TIMEOUT);
  return context.newPage();
}

/** The provider's own development login page: any login (the subject) and any password. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

describe('OpenID Connect in the browser', () => {
  test("signs in through the provider's login page and lands where the guard was sent", async () => {
    const sub = `e2e-${Date.now().toString(36)}`;
    idp.addAccount({ sub, preferred_username: sub.replace('-', '_'), name: 'Olive Example' });
    const page = await open({ width: 390, height: 844 });
    await page.goto(`/login?href=${encodeURIComponent('/account/profile')}`);
    await page.getByRole('heading', { name: authZh.login.title }).waitFor();
    await page.getByRole('link', { name: authZh.oidc.button.replace('{{label}}', 'Corp SSO') }).click();
    await signInAtProvider(page, sub);
    await page.waitForURL((url) => url.origin === baseURL() && url.pathname === '/account/profile');
    await page.getByRole('tab', { name: appZh.account.profile }).waitFor();
    // The ticket is gone from the address and cannot be used again.
    expect(page.url()).not.toContain('oidc_ticket');
  });

  test('an unknown subject of a provider without auto_create is told to link it first', async () => {
    idp.addAccount({ sub: 'nobody-here' });
    const page = await open();
    await page.goto('/login');
    await page.getByRole('link', { name: authZh.oidc.button.replace('{{label}}', 'Partner ID') }).click();
    await signInAtProvider(page, 'nobody-here');
    await page.waitForURL((url) => url.origin === baseURL() && url.pathname === '/login');
    await page.getByText(authZh.oidc.errors.not_linked).waitFor();
  });

  test('links a provider from the account area, then signs in with it', async () => {
    const username = `oidc${Date.now().toString(36)}`;
    const created = await apiFetch(baseURL(), 'POST', 'v1/user/users', {
      token: adminToken,
      body: { username, name: username, password: PASSWORD },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const sub = `${username}-sub`;
    idp.addAccount({ sub, email: `${username}@partner.test` });

    let page = await open();
    await page.goto(`/login?href=${encodeURIComponent('/account/security')}`);
    await page.getByRole('textbox', { name: authZh.fields.account }).fill(username);
    await page.getByLabel(new RegExp(`^${authZh.fields.password}\\s*\\*?$`)).fill(PASSWORD);
    await page.getByRole('button', { name: authZh.login.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    const section = page.getByRole('region', { name: authZh.oidc.account.title });
    await section
      .getByRole('listitem')
      .filter({ hasText: 'Partner ID' })
      .getByRole('button', { name: authZh.oidc.account.bind, exact: true })
      .click();
    await signInAtProvider(page, sub);
    await page.waitForURL((url) => url.origin === baseURL() && url.pathname === '/account/security');
    await page.getByText(authZh.oidc.account.bound_done.replace('{{label}}', 'Partner ID')).waitFor();
    await section
      .getByText(authZh.oidc.account.bound.replace('{{email}}', `${username}@partner.test`))
      .waitFor();
    await context!.close();

    page = await open();
    await page.goto(`/login?href=${encodeURIComponent('/account/profile')}`);
    await page.getByRole('link', { name: authZh.oidc.button.replace('{{label}}', 'Partner ID') }).click();
    await signInAtProvider(page, sub);
    await page.waitForURL((url) => url.origin === baseURL() && url.pathname === '/account/profile');
  });
});
