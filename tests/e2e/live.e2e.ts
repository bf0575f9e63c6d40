import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';
import { apiFetch, apiSignIn } from './helpers/api.ts';

// Issue 6 in the browser: the dashboard draws its sign-ins chart (x-charts, lazy-loaded), and a generated
// list refreshes by itself when a record changes through the API (live events over GET v1/events).
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;

function api(method: string, url: string, body?: unknown, as = token): Promise<Response> {
  return apiFetch(baseURL(), method, url, { token: as, body });
}

function signInApi(username: string, password: string): Promise<string> {
  return apiSignIn(baseURL(), username, password);
}

/** Resolves when the app's live event stream (GET v1/events) has answered, i.e. is subscribed. */
function eventStreamOpened(): Promise<unknown> {
  return page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/events' && res.ok());
}

const dataOf = async <T>(res: Promise<Response>, status: number): Promise<T> => {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(status);
  return ((await r.json()) as { data: T }).data;
};

/** A second administrator (account, staff record, invitation joined), acting through the API. */
async function otherAdmin(): Promise<string> {
  const username = `other${Date.now()}`;
  const password = 'Other-admin-pass-2026';
  await dataOf(api('POST', 'v1/user/users', { username, password, name: 'Other admin' }), 201);
  const staff = await dataOf<{ invitation_url: string }>(
    api('POST', 'v1/user/staff', { name: 'Other admin', is_admin: 1 }),
    201,
  );
  const other = await signInApi(username, password);
  const invitation = new URL(staff.invitation_url).searchParams.get('invitation');
  await dataOf(api('POST', 'v1/user/join', { invitation }, other), 200);
  return other;
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  token = await signInApi(username, password);
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
    const streamOpen = eventStreamOpened();
    await page.goto('/settings/staff');
    await page.getByRole('table').waitFor();
    // The server subscribes the stream before its headers leave, so from here on no change is missed.
    await streamOpen;
    const name = `Live ${Date.now()}`;
    const created = await api('POST', 'v1/user/staff', { name });
    expect(created.status).toBe(201);
    await page.getByRole('cell', { name }).waitFor({ timeout: 10_000 });

    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const renamed = `${name} renamed`;
    expect((await api('PATCH', `v1/user/staff/${id}`, { name: renamed })).status).toBe(200);
    await page.getByRole('cell', { name: renamed }).waitFor({ timeout: 10_000 });
  });

  test('an edit page warns when someone else changes, imports over or deletes the record', async () => {
    const other = await otherAdmin();
    const username = `target${Date.now()}`;
    const target = await dataOf<{ id: string }>(
      api('POST', 'v1/user/users', { username, password: 'Target-pass-2026', name: 'Target' }),
      201,
    );
    const streamOpen = eventStreamOpened();
    await page.goto(`/settings/users/${target.id}`);
    await expect.poll(() => page.getByLabel(/^用户名/).inputValue()).toBe(username);
    await streamOpen;
    const changed = page.getByText('在你编辑期间，其他人修改了这条记录。');
    const deleted = page.getByText('其他人删除了这条记录。');

    // Someone else's change is reported, and Reload brings their version in.
    await dataOf(api('PATCH', `v1/user/users/${target.id}`, { name: 'Theirs' }, other), 200);
    await changed.waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: '重新加载' }).click();
    await changed.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByLabel(/^姓名/).inputValue()).toBe('Theirs');

    // A CSV import that updates this record: one import event for the whole file.
    const form = new FormData();
    form.append('file', new Blob([`username,name\n${username},Imported\n`], { type: 'text/csv' }), 'u.csv');
    const imported = await fetch(`${baseURL()}/api/v1/user/users/import?upsert=username`, {
      method: 'POST',
      headers: { accept: 'application/json', authorization: `Bearer ${other}` },
      body: form,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    await changed.waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: '重新加载' }).click();
    await changed.waitFor({ state: 'hidden' });

    // My own change is not reported. Silence is proved by a control event behind it on the same stream
    // (events arrive in order): the other admin's delete. Every banner text the page shows from here on is
    // recorded, so a "changed" banner between the two would be seen even though "deleted" replaces it.
    await page.evaluate(() => {
      const w = window as unknown as { bannerTexts: string[] };
      w.bannerTexts = [];
      new MutationObserver(() => {
        for (const alert of document.querySelectorAll('[role="alert"]'))
          w.bannerTexts.push(alert.textContent ?? '');
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await dataOf(api('PATCH', `v1/user/users/${target.id}`, { name: 'Mine' }), 200);
    await dataOf(api('DELETE', `v1/user/users/${target.id}`, undefined, other), 200);
    await deleted.waitFor({ timeout: 10_000 });
    const texts = await page.evaluate(() => (window as unknown as { bannerTexts: string[] }).bannerTexts);
    expect(texts.some((text) => text.includes('其他人删除了这条记录。'))).toBe(true);
    expect(texts.filter((text) => text.includes('在你编辑期间'))).toEqual([]);
  });
});
