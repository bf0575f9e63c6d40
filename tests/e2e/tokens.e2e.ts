import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import auth from '../../locales/zh-CN/auth.json';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';

// Issue 31, item 6, in the browser: a personal API token created on the account page and then used by a
// script (a plain HTTP call with the Bearer token: no cookie, no XSRF header). Texts from zh-CN.
let browser: Browser;
let context: BrowserContext;
let page: Page;
const DEPTS = 'system.users.departments';

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, adminCredentials());
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

test('a token created in the UI works for a script, within its permissions only', async () => {
  await page.goto(`${baseURL()}/account/tokens`);
  await page.getByRole('heading', { name: auth.tokens.title }).waitFor();
  await page.getByRole('textbox', { name: auth.tokens.name }).fill('e2e script');
  await page.getByRole('checkbox', { name: DEPTS, exact: true }).check();
  await page.getByRole('button', { name: auth.tokens.create }).click();
  const secretBox = page.getByRole('textbox', { name: auth.tokens.secret, exact: true });
  await secretBox.waitFor();
  const secret = await secretBox.inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const call = (path: string) =>
    fetch(`${baseURL()}/api/${path}`, {
      headers: { Authorization: `Bearer ${secret}`, Accept: 'application/json' },
    });
  expect((await call('v1/user/departments')).status).toBe(200);
  expect((await call('v1/user/roles')).status).toBe(403);

  // Revoked from the page, it stops working.
  await page.getByRole('button', { name: `${auth.tokens.revoke}: e2e script` }).click();
  await expect.poll(async () => (await call('v1/user/departments')).status, { timeout: 15_000 }).toBe(401);
});
