import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 6 in the browser: the dashboard draws its sign-ins chart (x-charts, lazy-loaded), and a generated
// list refreshes by itself when a record changes through the API (live events over GET v1/events).
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;

async function api(method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(`${baseURL()}/api/${url}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  const login = await fetch(`${baseURL()}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, password, remember: false }),
  });
  token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  browser = await launchBrowser();
  context = await newContext(browser);
  await context.addCookies([{ name: 'access_token', value: token, url: baseURL() }]);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('live updates', () => {
  test('the dashboard renders its sign-ins chart and counts', async () => {
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: '仪表盘', level: 1 }).waitFor();
    const chart = page.getByTestId('sign-ins-chart').locator('svg').first();
    await chart.waitFor();
    // One bar per day of the last 30 (x-charts draws bars as rects with a data index).
    await expect.poll(() => page.getByTestId('sign-ins-chart').locator('rect').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByLabel('今日登录').textContent()).toMatch(/^\d+$/);
  });

  test('the staff list shows a member created through the API without a reload', async () => {
    await page.goto('/settings/staff');
    await page.getByRole('table').waitFor();
    // The stream is open once the list is mounted; give it a moment to subscribe.
    await page.waitForTimeout(500);
    const name = `Live ${Date.now()}`;
    const created = await api('POST', 'v1/user/staff', { name });
    expect(created.status).toBe(201);
    await page.getByRole('cell', { name }).waitFor({ timeout: 10_000 });

    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const renamed = `${name} renamed`;
    expect((await api('PATCH', `v1/user/staff/${id}`, { name: renamed })).status).toBe(200);
    await page.getByRole('cell', { name: renamed }).waitFor({ timeout: 10_000 });
  });
});
