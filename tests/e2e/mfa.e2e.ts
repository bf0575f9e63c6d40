import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import appZh from '../../locales/zh-CN/app.json';
import authZh from '../../locales/zh-CN/auth.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 31, item 1 in the browser: a user turns TOTP on in the account area (desk size), keeps the recovery
// codes, then signs in again in two steps on a phone-sized screen, and once more with a recovery code.
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

async function open(viewport: { width: number; height: number }): Promise<Page> {
  context = await newContext(browser, { viewport });
  context.setDefaultTimeout(TIMEOUT);
  return context.newPage();
}

/** A field by its label; MUI appends " *" to the label of a required field. */
function field(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}\\s*\\*?$`));
}

async function passwordStep(page: Page, username: string, href: string): Promise<void> {
  await page.goto(`/login?href=${encodeURIComponent(href)}`);
  await page.getByRole('heading', { name: authZh.login.title }).waitFor();
  await page.getByRole('textbox', { name: authZh.fields.account }).fill(username);
  await field(page, authZh.fields.password).fill(PASSWORD);
  await page.getByRole('button', { name: authZh.login.submit, exact: true }).click();
}

describe('TOTP in the browser', () => {
  test('enrol in the account area, then sign in with a code and with a recovery code', async () => {
    const username = `mfa${Date.now().toString(36)}`;
    const { username: adminName, password: adminPassword } = adminCredentials();
    const adminToken = await apiSignIn(baseURL(), adminName, adminPassword);
    const created = await apiFetch(baseURL(), 'POST', 'v1/user/users', {
      token: adminToken,
      body: { username, name: username, email: `${username}@example.test`, password: PASSWORD },
    });
    expect(created.status, await created.clone().text()).toBe(201);

    // Desk: sign in with the password alone, turn TOTP on.
    let page = await open({ width: 1280, height: 800 });
    await passwordStep(page, username, '/account/security');
    await page.waitForURL((url) => url.pathname === '/account/security');
    await page.getByRole('tab', { name: appZh.account.security }).waitFor();
    await page.getByRole('button', { name: authZh.mfa.enable }).click();
    await page.getByRole('img', { name: authZh.mfa.qr_alt }).waitFor();
    const secret = (await page.locator('code').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await field(page, authZh.mfa.code).fill(await generate({ secret }));
    await page.getByRole('button', { name: authZh.mfa.confirm }).click();
    const list = page.getByRole('list', { name: authZh.mfa.codes_title });
    await list.waitFor();
    const recoveryCodes = await list.getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: authZh.mfa.codes_done }).click();
    await page.getByText(authZh.mfa.status_on.replace('{{count}}', '10')).waitFor();
    await context!.close();

    // Phone: the password, then the code of the next step (the current one was spent on the enrolment).
    page = await open({ width: 390, height: 844 });
    await passwordStep(page, username, '/account/profile');
    await page.getByRole('heading', { name: authZh.mfa.step_title }).waitFor();
    await field(page, authZh.mfa.code).fill('12345');
    await page.getByRole('button', { name: authZh.mfa.verify, exact: true }).click();
    await page.getByText(authZh.mfa.code_format, { exact: true }).waitFor();
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await field(page, authZh.mfa.code).fill(next);
    await page.getByRole('button', { name: authZh.mfa.verify, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account/profile');
    await context!.close();

    // A recovery code, once.
    page = await open({ width: 390, height: 844 });
    await passwordStep(page, username, '/account/security');
    await page.getByRole('button', { name: authZh.mfa.use_recovery }).click();
    await field(page, authZh.mfa.recovery_code).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: authZh.mfa.verify, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    await page.getByText(authZh.mfa.status_on.replace('{{count}}', '9')).waitFor();
  });
});
