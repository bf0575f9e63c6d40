import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import appEn from '../../locales/en/app.json';
import appZh from '../../locales/zh-CN/app.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 34, items 5 and 7 in the browser: a dictionary's page is titled with its name (heading, breadcrumb and
// document title), a staff member's account reads as the username, an error page is titled with what happened
// and the site name, and the dashboard's sign-ins chart counts in whole numbers. Desk and phone, zh-CN and
// English; records seeded through the API.
const RUN = Date.now().toString(36);
const SIZES = {
  desk: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const LANGUAGES = [
  { locale: 'zh-CN', app: appZh },
  { locale: 'en', app: appEn },
] as const;

let browser: Browser;
let adminToken = '';
let dictionary = { id: '', name: '' };
let member = { id: '', username: '' };
const contexts: BrowserContext[] = [];

async function pageAs(viewport: { width: number; height: number }, locale: string): Promise<Page> {
  const context = await newContext(browser, { viewport, isMobile: viewport.width < 600 });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: adminToken, url: baseURL() }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

beforeAll(async () => {
  const admin = adminCredentials();
  adminToken = await apiSignIn(baseURL(), admin.username, admin.password);
  browser = await launchBrowser();
  const name = `尺码${RUN}`;
  const res = await apiFetch(baseURL(), 'POST', 'v1/dictionary/types', {
    token: adminToken,
    body: { name, slug: `size_${RUN}` },
  });
  expect(res.status).toBe(201);
  dictionary = { id: ((await res.json()) as { data: { id: string } }).data.id, name };
  // A staff member whose account has joined: its "Account" is the username.
  const call = async <T>(method: string, path: string, body: unknown, token = adminToken): Promise<T> => {
    const answer = await apiFetch(baseURL(), method, path, { token, body });
    const text = await answer.text();
    expect(answer.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return (JSON.parse(text) as { data: T }).data;
  };
  const username = `acct${RUN}`;
  await call('POST', 'v1/user/users', { username, password: 'Account-pass-2026-ok', name: '账号' });
  const staff = await call<{ id: string; invitation_url: string }>('POST', 'v1/user/staff', {
    name: `成员${RUN}`,
  });
  const token = await apiSignIn(baseURL(), username, 'Account-pass-2026-ok');
  const invitation = new URL(staff.invitation_url).searchParams.get('invitation');
  await call('POST', 'v1/user/join', { invitation }, token);
  member = { id: staff.id, username };
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('finished screens', () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const { locale, app } of LANGUAGES) {
      test(`${size}, ${locale}: a dictionary is titled by its name; every chart tick is labelled with a whole number`, async () => {
        const page = await pageAs(viewport, locale);
        await page.goto(`/settings/dictionaries/${dictionary.id}`);
        await page.getByRole('heading', { level: 1, name: dictionary.name }).waitFor();
        await expect.poll(() => page.title()).toMatch(new RegExp(`^${dictionary.name} - `));
        expect(await page.locator('body').innerText()).not.toContain(`#${dictionary.id}`);

        await page.goto(`/settings/staff/${member.id}`);
        await page.getByRole('heading', { level: 1, name: `成员${RUN}` }).waitFor();
        await page.getByText(member.username, { exact: true }).waitFor();

        await page.goto(`/no/such/page-${RUN}`);
        await page.getByRole('heading', { level: 1, name: app.errors['404'].title }).waitFor();
        await expect.poll(() => page.title()).toMatch(new RegExp(`^${app.errors['404'].title} - .+`));

        await page.goto('/dashboard');
        await page.getByRole('heading', { name: app.dashboard.title }).first().waitFor();
        const ticks = page.locator('.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel');
        await ticks.first().waitFor();
        // Every tick is labelled, the top one too (the chart drops a label that does not fit its margin).
        const labels = (await ticks.allTextContents()).map((label) => label.trim());
        expect(labels.length).toBeGreaterThan(1);
        for (const label of labels) expect(label).toMatch(/^\d+$/);
      });
    }
  }
});
