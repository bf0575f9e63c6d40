import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import appEn from '../../locales/en/app.json';
import appZh from '../../locales/zh-CN/app.json';
import { gadgetReport } from '../fixtures/pages.ts';
import { FIXTURE_LABELS } from '../fixtures/registry.ts';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { launchBrowser, newContext, openInLocale } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN, type E2eServer } from './helpers/server.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 35 item 11 in the browser: the fixture's custom page (tests/fixtures/pages.ts, `test.gadget_report`)
// is in the menu and opens for a member whose role holds its name; for a member whose role does not, it is
// absent from the menu and a direct visit shows the "No Permission" page. Desk and phone, zh-CN and English
// (a loop over cheap checks on one signed-in context per member and size), axe on the page.
const RUN = Date.now().toString(36);
const SIZES = [
  ['desk', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const LANGUAGES = [
  { locale: 'zh-CN', app: appZh },
  { locale: 'en', app: appEn },
] as const;
const PATH = `/settings/${gadgetReport.path}`;

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let adminToken = '';
const tokens = { holder: '', outsider: '' };

async function api<T>(method: string, path: string, body?: unknown, token = adminToken): Promise<T> {
  const res = await apiFetch(server.baseURL, method, path, { token, body });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

/** An account that joins a staff record holding one role with exactly `menuIds`; returns its token. */
async function member(name: string, menuIds: string[], departmentId: string): Promise<string> {
  const role = await api<{ id: string }>('POST', 'v1/user/roles', {
    name: `${name}${RUN}`,
    state: true,
    permissions: { menu_ids: menuIds },
  });
  const username = `${name}${RUN}`;
  const password = 'Custom-page-pass-2026';
  await api('POST', 'v1/user/users', { username, password, name });
  const staff = await api<{ invitation_url: string }>('POST', 'v1/user/staff', {
    name: `${name}${RUN}`,
    department_id: departmentId,
    role_ids: [role.id],
  });
  const token = await apiSignIn(server.baseURL, username, password);
  const invitation = new URL(staff.invitation_url).searchParams.get('invitation');
  await api('POST', 'v1/user/join', { invitation }, token);
  return token;
}

/** A page signed in with `token` at the given size. */
async function pageAs(token: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await newContext(browser, {
    baseURL: server.baseURL,
    viewport,
    isMobile: viewport.width < 600,
  });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: server.baseURL }]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** Opens `path` in `locale` (stored before the app loads, as the language switcher stores it). */
function open(page: Page, path: string, locale: string): Promise<void> {
  return openInLocale(page, server.baseURL, path, locale);
}

/** The side menu, opened first on a phone (its drawer starts closed). */
async function menu(page: Page, app: typeof appEn) {
  const nav = page.getByRole('navigation', { name: app.sidebar.navigation });
  const toggle = page.getByRole('button', { name: app.sidebar.expand });
  if ((page.viewportSize()?.width ?? 0) < 600 && (await toggle.count())) await toggle.click();
  await nav.last().waitFor();
  return nav.last();
}

beforeAll(async () => {
  server = await startFixtureServer();
  adminToken = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  browser = await launchBrowser();
  const department = await api<{ id: string }>('POST', 'v1/user/departments', {
    name: `报表部${RUN}`,
    parent_id: '0',
  });
  tokens.holder = await member('reporter', ['test', gadgetReport.permission], department.id);
  // Holds a page of the same group, so a menu that has loaded shows that link (the control for an absence).
  tokens.outsider = await member('outsider', ['test', 'test.gadgets'], department.id);
}, 900_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
});

describe.each(SIZES)('at %s size', (_size, viewport) => {
  test('a member whose role holds the page finds it in the menu and opens it', async () => {
    const page = await pageAs(tokens.holder, viewport);
    for (const { locale, app } of LANGUAGES) {
      const title = gadgetReport.labels[locale];
      await open(page, PATH, locale);
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: title, level: 1 }).waitFor();
      await main.getByTestId('gadget-report').waitFor();
      const link = (await menu(page, app)).getByRole('link', { name: title });
      expect(await link.getAttribute('href'), locale).toBe(PATH);
      expect(await link.getAttribute('aria-current'), locale).toBe('page');
      expect(await seriousViolations(page), `${locale} axe`).toEqual([]);
    }
  });

  test('a member whose role does not hold it sees no entry and a direct visit is refused', async () => {
    const page = await pageAs(tokens.outsider, viewport);
    for (const { locale, app } of LANGUAGES) {
      await open(page, PATH, locale);
      const main = page.getByRole('main');
      await main.getByText(app.errors.no_permission.title).waitFor();
      expect(await main.getByTestId('gadget-report').count(), locale).toBe(0);
      const nav = await menu(page, app);
      const gadgets = (FIXTURE_LABELS[locale].gadgets as { name_other: string }).name_other;
      await nav.getByRole('link', { name: gadgets }).waitFor();
      expect(await nav.getByRole('link', { name: gadgetReport.labels[locale] }).count(), locale).toBe(0);
      expect(await seriousViolations(page), `${locale} axe`).toEqual([]);
    }
  });
});
