import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import auth from '../../locales/zh-CN/auth.json';
import app from '../../locales/zh-CN/app.json';
import settings from '../../locales/zh-CN/settings.json';
import settingsEn from '../../locales/en/settings.json';
import system from '../../locales/zh-CN/system.json';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServer, type E2eServer } from './helpers/server.ts';
import { apiData, apiSignIn } from './helpers/api.ts';

// Issue 13 items 1, 3 (dates), 4, 8, 10 and 11 in Chromium, against a server of its own that writes its daily log file
// (the shared one runs with LOG_TO_FILE=0): the activity log in words, title/h1/main/breadcrumbs on every
// route (desk and phone), the system logs page over the real file, the dashboard without console warnings,
// and the sign-in card's logo.
let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

const ROUTES = [
  '/dashboard',
  '/account/profile',
  '/account/password',
  '/account/security',
  '/account/sessions',
  '/account/tokens',
  '/settings',
  '/settings/modules',
  '/settings/dictionaries',
  '/settings/dictionaries/create',
  '/settings/dictionaries/trash',
  '/settings/resources',
  '/settings/staff',
  '/settings/staff/create',
  '/settings/roles',
  '/settings/roles/create',
  '/settings/departments',
  '/settings/activities',
  '/settings/monitor',
  '/settings/tasks',
  '/settings/jobs',
  '/settings/logs',
  '/settings/users',
  // Issue 34 item 1 on the newer pages: each resource's trash (issue 36).
  '/settings/staff/trash',
  '/settings/roles/trash',
  '/settings/departments/trash',
  '/settings/users/trash',
];

async function api<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const { status, data } = await apiData(server.baseURL, method, path, { token, body });
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(data)}`);
  return data as T;
}

let staffId = '';

beforeAll(async () => {
  server = await startServer({ extraEnv: { LOG_TO_FILE: '1', LOG_LEVEL: 'info' } });
  const token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  const role = await api<{ id: string }>('POST', 'v1/user/roles', token, { name: '审计员' });
  const department = await api<{ id: string }>('POST', 'v1/user/departments', token, { name: '销售部' });
  const staff = await api<{ id: string }>('POST', 'v1/user/staff', token, {
    name: 'Li Lei',
    role_ids: [role.id],
    department_id: department.id,
  });
  staffId = staff.id;
  await api('PATCH', `v1/user/staff/${staffId}`, token, { is_admin: 1 });
  await api('POST', 'v1/settings/site', token, { site_name: 'E2E 后台', site_logo: '/robots.txt' });
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('the sign-in card', () => {
  test('shows the logo from settings above the site name', async () => {
    await page.goto('/login');
    const logo = page.getByRole('img', { name: 'E2E 后台 logo' });
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toBe('/robots.txt');
    await page.getByText('E2E 后台', { exact: true }).waitFor();
  });
});

describe('signed-out pages', () => {
  test('each has one h1, a main landmark and the title "<page> - <site name>"', async () => {
    const visitor = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
    try {
      const anonymous = await visitor.newPage();
      for (const [route, heading] of [
        ['/login', auth.login.title],
        ['/', auth.login.title],
        ['/reset', auth.reset.title],
        ['/register', auth.register.title],
      ] as const) {
        await anonymous.goto(route);
        await anonymous.getByRole('heading', { name: heading, level: 1 }).waitFor();
        expect(await anonymous.locator('h1').count(), route).toBe(1);
        expect(await anonymous.getByRole('main').count(), route).toBe(1);
        await expect.poll(() => anonymous.title(), { message: route }).toBe(`${heading} - E2E 后台`);
      }
    } finally {
      await visitor.close();
    }
  });
});

describe('signed in', () => {
  beforeAll(async () => {
    await signIn(page, E2E_ADMIN);
  });

  test('the dashboard: figures, plain-words activity, chart or its empty state, no console warnings', async () => {
    problems.length = 0;
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: system.dashboard.title, level: 1 }).waitFor();
    await page.getByLabel(system.dashboard.pending_invitations, { exact: true }).waitFor();
    const recent = page.getByRole('list', { name: system.dashboard.recent_activity });
    await recent.getByText(app.activity.verbs.create.replace('{{name}}', '员工')).first().waitFor();
    await recent.getByRole('link', { name: 'Li Lei' }).first().waitFor();
    expect(await recent.innerText()).not.toMatch(/staff\.create|auth\.login|role_ids|\[|\{/);
    // Signed in today, so the chart draws; it must not log React's negative-width warning on the way.
    await page.getByTestId('sign-ins-chart').locator('svg').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  });

  test('the activity log reads in words and links the record', async () => {
    await page.goto('/settings/activities');
    const table = page.getByRole('table');
    await table.getByText('新建员工').first().waitFor();
    await table.getByText(app.activity.actions.auth.login).first().waitFor();
    const text = await table.innerText();
    expect(text).toContain('审计员');
    expect(text).toContain('销售部');
    expect(text).toMatch(/管理员: 否 → 是|管理员: — → 是/);
    expect(text).not.toMatch(/staff\.create|auth\.login|role_ids|department_id|is_admin|menu_ids|["{[]/);
    await table.getByRole('link', { name: 'Li Lei' }).first().click();
    await page.waitForURL((url) => url.pathname === `/settings/staff/${staffId}`);
    await page.getByRole('navigation', { name: app.shell.breadcrumbs }).getByText('Li Lei').waitFor();
    await page.getByRole('heading', { name: 'Li Lei', level: 1 }).waitFor();
    await expect.poll(() => page.title()).toBe('Li Lei - E2E 后台');
    const crumbs = await page.getByRole('navigation', { name: app.shell.breadcrumbs }).innerText();
    expect(crumbs.split(/\s*\/\s*|\n/).filter(Boolean)).toEqual([app.nav.settings, app.menu.staff, 'Li Lei']);
  });

  test('the action filter finds actions by their name in words', async () => {
    await page.goto('/settings/activities');
    const table = page.getByRole('table');
    await table.getByText(app.activity.actions.auth.login).first().waitFor();
    const action = page.getByRole('combobox', { name: '操作', exact: true });
    await action.fill('新建员');
    await page.getByRole('option', { name: '新建员工' }).click();
    await page.waitForURL((url) => decodeURIComponent(url.search).includes('"action":"staff.create"'));
    await expect
      .poll(async () => [...new Set(await table.locator('tbody tr td:nth-child(2)').allInnerTexts())])
      .toEqual(['新建员工']);
  });

  test('dates follow the interface language, not the browser (en-US): shown and typed', async () => {
    // The time column (no longer the last: the undo column follows it), its line break (a narrow column) read
    // as a space.
    const stamp = async (table: ReturnType<Page['getByRole']>) =>
      (await table.locator('tbody tr td.column-created_at').first().innerText()).replace(/\s+/g, ' ').trim();
    await page.goto('/settings/activities');
    const table = page.getByRole('table');
    await table.getByText(app.activity.actions.auth.login).first().waitFor();
    // zh-CN: 2026/11/24 15:41:03, where the browser's own format would be 11/24/2026, 3:41:03 PM.
    expect(await stamp(table)).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    const from = page.getByRole('textbox', { name: settings.activities.from });
    expect(await from.getAttribute('placeholder')).toBe('年/月/日');
    await from.fill('2020/01/02');
    await page.waitForURL((url) => decodeURIComponent(url.search).includes('created_at@between'));
    await table.getByText(app.activity.actions.auth.login).first().waitFor();
    // The same page in English: month first, 24-hour time, and the typed date rewritten.
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    try {
      await page.reload();
      await page.getByRole('table').getByText('Signed in').first().waitFor();
      expect(await stamp(page.getByRole('table'))).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/);
      const fromEn = page.getByRole('textbox', { name: settingsEn.activities.from });
      expect(await fromEn.inputValue()).toBe('01/02/2020');
      await fromEn.fill('01/03/2020');
      await page.waitForURL((url) =>
        decodeURIComponent(url.search).includes(new Date(2020, 0, 3).toISOString()),
      );
    } finally {
      await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
      await page.goto('/settings/activities');
    }
  });

  test('system logs list the lines of the file this server writes', async () => {
    const file = path.join(server.dataDir, 'logs', `app-${new Date().toISOString().slice(0, 10)}.log`);
    expect(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(10);
    await page.goto('/settings/logs');
    await page.getByRole('cell', { name: 'request completed' }).first().waitFor();
    const pager = await page.locator('.MuiTablePagination-displayedRows').innerText();
    expect(pager).not.toMatch(/^0-0|共 0 行/);
    expect(pager).toMatch(/^第 1-50 行，共 \d+\+? 行$/);
  });

  for (const viewport of [
    { name: 'desk', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`every route has one h1, a main landmark, a title and breadcrumbs, nothing wider than the screen: ${viewport.name}`, async () => {
      await page.setViewportSize(viewport);
      const tooWide: string[] = [];
      for (const route of [...ROUTES, `/settings/staff/${staffId}`]) {
        await page.goto(route);
        const h1 = page.locator('h1');
        await h1.first().waitFor();
        // Not networkidle: the monitor and logs pages hold a live event stream open.
        await expect.poll(() => h1.count(), { message: route }).toBe(1);
        expect(await page.getByRole('main').count(), route).toBe(1);
        const heading = (await h1.innerText()).trim();
        expect(heading, route).not.toBe('');
        await expect.poll(() => page.title(), { message: route }).toMatch(/ - E2E 后台$/);
        const trail = page.getByRole('navigation', { name: app.shell.breadcrumbs });
        expect(await trail.count(), route).toBe(1);
        expect(await trail.innerText(), route).toContain(
          route.startsWith('/account')
            ? app.account.title
            : route === '/dashboard'
              ? system.dashboard.title
              : app.nav.settings,
        );
        // Issue 34, item 1: the page's data has arrived (no progress indicator left) and the document is no
        // wider than the viewport; a wide table scrolls inside its own box.
        await page
          .getByRole('progressbar')
          .first()
          .waitFor({ state: 'detached', timeout: 10_000 })
          .catch(() => undefined);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > viewport.width) tooWide.push(`${route}: ${width}px`);
      }
      expect(tooWide).toEqual([]);
    }, 240_000); // twenty-eight routes, each loaded and checked
  }

  // English labels run longer than Chinese ones: the same routes on a phone, in English, fit the screen too.
  test('every route is no wider than the screen in English on a phone', async () => {
    const english = await browser.newContext({
      baseURL: server.baseURL,
      locale: 'en-US',
      viewport: { width: 390, height: 844 },
    });
    try {
      const phone = await english.newPage();
      phone.setDefaultTimeout(20_000);
      await signIn(phone, E2E_ADMIN);
      await phone.evaluate(() => localStorage.setItem('locale', 'en'));
      const tooWide: string[] = [];
      for (const route of [...ROUTES, `/settings/staff/${staffId}`]) {
        await phone.goto(route);
        await phone.locator('h1').first().waitFor();
        await expect
          .poll(() => phone.evaluate(() => document.documentElement.lang), { message: route })
          .toBe('en');
        await phone
          .getByRole('progressbar')
          .first()
          .waitFor({ state: 'detached', timeout: 10_000 })
          .catch(() => undefined);
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        if (width > 390) tooWide.push(`${route}: ${width}px`);
      }
      expect(tooWide).toEqual([]);
    } finally {
      await english.close();
    }
  }, 240_000);
});
