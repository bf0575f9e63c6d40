import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import authZh from '../../locales/zh-CN/auth.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 31, item 2 in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain through
// playwright-core): register a passkey in the account area, sign in with it alone, then use it as the second
// step after the password. WebAuthn needs a domain as the RP ID, so the pages are opened on localhost.
const PASSWORD = 'lunar-otter-plays-cello';
const TIMEOUT = 45_000;

let browser: Browser;
let context: BrowserContext | null = null;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  await context?.close();
  context = null;
});
afterAll(async () => {
  await browser?.close();
});

function field(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}\\s*\\*?$`));
}

describe('passkeys in the browser', () => {
  test('register one, sign in with it alone and as the second step', async () => {
    const username = `pk${Date.now().toString(36)}`;
    const { username: adminName, password: adminPassword } = adminCredentials();
    const adminToken = await apiSignIn(baseURL(), adminName, adminPassword);
    const created = await apiFetch(baseURL(), 'POST', 'v1/user/users', {
      token: adminToken,
      body: { username, name: username, email: `${username}@example.test`, password: PASSWORD },
    });
    expect(created.status, await created.clone().text()).toBe(201);

    context = await newContext(browser, { baseURL: baseURL().replace('127.0.0.1', 'localhost') });
    context.setDefaultTimeout(TIMEOUT);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    // Password sign-in, then a passkey named in the account area.
    await page.goto('/login?href=%2Faccount%2Fsecurity');
    await page.getByRole('textbox', { name: authZh.fields.account }).fill(username);
    await field(page, authZh.fields.password).fill(PASSWORD);
    await page.getByRole('button', { name: authZh.login.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    await page.getByRole('heading', { name: authZh.passkey.title }).waitFor();
    await page.getByLabel(authZh.passkey.name).last().fill('笔记本');
    await page.getByRole('button', { name: authZh.passkey.add }).click();
    await page.getByText(authZh.passkey.added).waitFor();
    await page.getByText('笔记本', { exact: true }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);

    // Signed out: the passkey alone signs in.
    await context.clearCookies();
    await page.goto('/login?href=%2Faccount%2Fsecurity');
    await page.getByRole('button', { name: authZh.passkey.sign_in }).click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    await page.getByText('笔记本', { exact: true }).waitFor();

    // With a passkey, the password is followed by the second step, finished with the passkey.
    await context.clearCookies();
    await page.goto('/login?href=%2Faccount%2Fprofile');
    await page.getByRole('textbox', { name: authZh.fields.account }).fill(username);
    await field(page, authZh.fields.password).fill(PASSWORD);
    await page.getByRole('button', { name: authZh.login.submit, exact: true }).click();
    await page.getByRole('heading', { name: authZh.mfa.step_title }).waitFor();
    await page.getByRole('button', { name: authZh.passkey.use_passkey }).click();
    await page.waitForURL((url) => url.pathname === '/account/profile');

    // Deleted in the account area: the list is empty again.
    await page.goto('/account/security');
    await page.getByRole('button', { name: `${authZh.passkey.delete} 笔记本` }).click();
    await page.getByText(authZh.passkey.none).waitFor();
  });

  test('a staff member the 2FA policy covers enrols a passkey on the sign-in page and is signed in', async () => {
    const username = `pe${Date.now().toString(36)}`;
    const { username: adminName, password: adminPassword } = adminCredentials();
    const adminToken = await apiSignIn(baseURL(), adminName, adminPassword);
    const created = await apiFetch(baseURL(), 'POST', 'v1/user/users', {
      token: adminToken,
      body: { username, name: username, password: PASSWORD },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    // A staff record the account joins: the `staff` policy covers it.
    const member = await apiFetch(baseURL(), 'POST', 'v1/user/staff', {
      token: adminToken,
      body: { name: username },
    });
    expect(member.status, await member.clone().text()).toBe(201);
    const { invitation_url } = ((await member.json()) as { data: { invitation_url: string } }).data;
    const joined = await apiFetch(baseURL(), 'POST', 'v1/user/join', {
      token: await apiSignIn(baseURL(), username, PASSWORD),
      body: { invitation: new URL(invitation_url).searchParams.get('invitation') },
    });
    expect(joined.status, await joined.clone().text()).toBe(200);

    const setPolicy = async (policy: string) => {
      const res = await apiFetch(baseURL(), 'POST', 'v1/settings/login', {
        token: adminToken,
        body: { require_2fa: policy },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    await setPolicy('staff');
    try {
      context = await newContext(browser, { baseURL: baseURL().replace('127.0.0.1', 'localhost') });
      context.setDefaultTimeout(TIMEOUT);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });

      await page.goto('/login?href=%2Faccount%2Fsecurity');
      await page.getByRole('textbox', { name: authZh.fields.account }).fill(username);
      await field(page, authZh.fields.password).fill(PASSWORD);
      await page.getByRole('button', { name: authZh.login.submit, exact: true }).click();
      await page.getByRole('heading', { name: authZh.mfa.enrol_title }).waitFor();
      await page.getByRole('button', { name: authZh.passkey.enrol }).click();
      await page.waitForURL((url) => url.pathname === '/account/security');
      await page
        .getByRole('list', { name: authZh.passkey.title })
        .getByText(authZh.passkey.default_name, { exact: true })
        .waitFor();
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
    } finally {
      await setPolicy('none');
    }
  });
});
