import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import appEn from '../../locales/en/app.json';
import appZh from '../../locales/zh-CN/app.json';
import engineEn from '../../locales/en/engine.json';
import engineZh from '../../locales/zh-CN/engine.json';
import peopleEn from '../../locales/en/resources-people.json';
import peopleZh from '../../locales/zh-CN/resources-people.json';
import settingsZh from '../../locales/zh-CN/settings.json';
import systemZh from '../../locales/zh-CN/system.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 34 items 4 and 5 in the browser: the arrow keys through the rows of every hand-written table (the
// tasks, the job queues, the activity log, the department tree, the sessions, the monitor) and the phone's
// cards: Up/Down, Home/End, Enter opens the row's main action; and the department tree picker of the staff
// form used by keyboard only (open, arrows, type-ahead, search, Enter), axe with it open. Desk and phone;
// the tables in zh-CN (the keys do not depend on the language), the picker in zh-CN and English.
const RUN = Date.now().toString(36);
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const SIZES = [
  ['desk', DESK],
  ['phone', PHONE],
] as const;
const LANGUAGES = [
  { locale: 'zh-CN', app: appZh, engine: engineZh, people: peopleZh },
  { locale: 'en', app: appEn, engine: engineEn, people: peopleEn },
] as const;
// The root's name starts with Latin letters: type-ahead is typed as key presses (Chinese comes as text).
const ROOT = `Zq键盘总部${RUN}`;
const CHILD = `研发${RUN}`;
const GRANDCHILD = `后端${RUN}`;

let browser: Browser;
const contexts: BrowserContext[] = [];
let adminToken = '';

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await apiFetch(baseURL(), method, path, { token: adminToken, body });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

async function pageAt(viewport: typeof DESK, locale: string): Promise<Page> {
  const context = await newContext(browser, { viewport, isMobile: viewport.width < 600 });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: adminToken, url: baseURL() }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/** Where the focus is among the rows: its text, and whether it is the first or last row of its list. */
function focusedRow(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el?.matches('tbody tr, [data-key-row]'))
      return { isRow: false, text: el?.tagName ?? '', index: -1, count: 0 };
    const table = el.closest('table');
    const rows = table
      ? Array.from(table.tBodies[0]?.rows ?? [])
      : Array.from(document.querySelectorAll('main [data-key-row]'));
    return {
      isRow: true,
      text: el.textContent ?? '',
      index: rows.indexOf(el as HTMLTableRowElement),
      count: rows.length,
    };
  });
}

/** From `start` (a table's box, a table, or a control in the first row): Down, Down, Up, End, Home. */
async function walkRows(page: Page, start: Locator, what: string) {
  await start.focus();
  const startRow = await start.evaluate((el) => {
    const row = el.closest('tbody tr, [data-key-row]');
    if (!row) return -1;
    const table = row.closest('table');
    const rows = table
      ? Array.from(table.tBodies[0]?.rows ?? [])
      : Array.from(document.querySelectorAll('main [data-key-row]'));
    return rows.indexOf(row as HTMLTableRowElement);
  });
  await page.keyboard.press('ArrowDown');
  const first = await focusedRow(page);
  expect(first.isRow, `${what}: ArrowDown reaches a row (${first.text})`).toBe(true);
  expect(first.count, `${what}: rows`).toBeGreaterThanOrEqual(2);
  expect(first.index, what).toBe(startRow + 1);
  await page.keyboard.press('ArrowDown');
  const second = (await focusedRow(page)).index;
  // The last row stays where it is.
  expect(second, what).toBe(Math.min(first.index + 1, first.count - 1));
  await page.keyboard.press('ArrowUp');
  expect((await focusedRow(page)).index, `${what}: ArrowUp`).toBe(second - 1);
  await page.keyboard.press('End');
  expect((await focusedRow(page)).index, `${what}: End`).toBe(first.count - 1);
  await page.keyboard.press('Home');
  expect((await focusedRow(page)).index, `${what}: Home`).toBe(0);
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  adminToken = await apiSignIn(baseURL(), username, password);
  // More sessions of the administrator, so its sessions page has several rows.
  for (let i = 0; i < 2; i++) await apiSignIn(baseURL(), username, password);
  browser = await launchBrowser();
  // A department tree, created leaf first so the list's order (newest first) is not the tree's.
  const root = await api<{ id: string }>('POST', 'v1/user/departments', { name: ROOT, parent_id: '0' });
  const child = await api<{ id: string }>('POST', 'v1/user/departments', { name: CHILD, parent_id: root.id });
  await api('POST', 'v1/user/departments', { name: GRANDCHILD, parent_id: child.id });
  await api('POST', 'v1/user/departments', { name: `测试${RUN}`, parent_id: root.id });
  for (const n of [1, 2, 3])
    await api('POST', 'v1/user/staff', { name: `键盘员工${n}-${RUN}`, department_id: root.id });
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe.each(SIZES)('at %s size', (size, viewport) => {
  test('the arrow keys move through every hand-written table and the cards; Enter opens', async () => {
    const page = await pageAt(viewport, 'zh-CN');
    const main = page.getByRole('main');
    const system = systemZh;

    await page.goto('/settings/tasks');
    await walkRows(page, main.getByRole('region', { name: system.tasks.title }), 'tasks');
    await page.keyboard.press('Enter');
    await main.getByRole('heading', { name: new RegExp(system.tasks.runs.title) }).waitFor();

    await page.goto('/settings/jobs');
    await walkRows(page, main.getByRole('region', { name: system.jobs.queues }), 'queues');
    // Enter on the second queue shows its jobs under its name.
    await page.keyboard.press('ArrowDown');
    const queue = await page.evaluate(
      () => (document.activeElement as HTMLTableRowElement).cells[0]?.innerText.trim() ?? '',
    );
    await page.keyboard.press('Enter');
    await expect.poll(() => main.getByRole('heading', { level: 2 }).allInnerTexts()).toContain(queue);

    await page.goto('/settings/activities');
    const activities = main.getByRole('region', { name: appZh.menu.activities });
    await activities.locator('tbody tr').nth(1).waitFor();
    await walkRows(page, activities, 'activities');

    await page.goto('/settings/departments');
    await main.getByText(GRANDCHILD).waitFor();
    await walkRows(page, main.locator('[data-key-row]').first().getByRole('button').first(), 'departments');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: settingsZh.people.departments.edit }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto('/account/sessions');
    await main.locator('[data-key-row]').nth(2).waitFor();
    await walkRows(page, main.getByRole('button').first(), 'sessions');

    await page.goto('/settings/monitor');
    const nodes = main.getByRole('table', { name: system.monitor.nodes_title });
    await nodes.locator('tbody tr').first().waitFor();
    // A figure table (label/value rows; the servers table may have one row).
    await walkRows(page, main.locator('table:not([aria-label])').first(), 'monitor');

    // The generated list: rows at desk (screens.e2e.ts), cards on a phone.
    await page.goto('/settings/staff');
    await main.getByText(`键盘员工1-${RUN}`).first().waitFor();
    if (size === 'phone') {
      const card = main.getByTestId('record-card').first();
      await walkRows(page, card.getByRole('link').first(), 'staff cards');
      await page.keyboard.press('ArrowDown');
      const opened = (await focusedRow(page)).text;
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => /^\/settings\/staff\/\d+$/.test(url.pathname));
      expect(opened.length).toBeGreaterThan(0);
    } else {
      await walkRows(
        page,
        main.getByRole('columnheader').first().locator('button, input').first(),
        'staff rows',
      );
    }
  }, 120_000);

  test.each(LANGUAGES)(
    'the staff form picks a department from the tree by keyboard only ($locale)',
    async ({ locale, engine, people }) => {
      const page = await pageAt(viewport, locale);
      await page.goto('/settings/staff/create');
      const field = page.getByRole('combobox', { name: people.staff.fields.department_id });
      await field.focus();
      await page.keyboard.press('Enter');
      const tree = page.getByRole('tree', { name: people.staff.fields.department_id });
      const root = tree.getByRole('treeitem', { name: ROOT });
      // Type-ahead to the root (its name starts with the run's letters of its first word).
      await root.waitFor();
      const isFocused = (item: Locator) => item.evaluate((el) => el === document.activeElement);
      // The search keeps the ancestors of what it finds.
      await page.keyboard.press('Shift+Tab');
      const search = page.getByRole('searchbox', { name: engine.tree_picker.search });
      await expect.poll(() => isFocused(search)).toBe(true);
      await page.keyboard.type(GRANDCHILD);
      await tree.getByRole('treeitem', { name: GRANDCHILD }).waitFor();
      expect(await tree.getByRole('treeitem').allInnerTexts()).toEqual([ROOT, CHILD, GRANDCHILD]);
      expect(await tree.getByRole('treeitem', { name: GRANDCHILD }).getAttribute('aria-level')).toBe('3');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      // The arrows: into the tree, open the root, down to its first child, choose it.
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => isFocused(tree.getByRole('treeitem').first())).toBe(true);
      await page.keyboard.type('zq');
      await expect.poll(() => isFocused(root)).toBe(true);
      expect(await root.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('ArrowRight');
      expect(await root.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowDown');
      const child = tree.getByRole('treeitem', { name: CHILD });
      await expect.poll(() => isFocused(child)).toBe(true);
      await page.keyboard.press('Enter');
      await tree.waitFor({ state: 'detached' });
      await expect.poll(() => field.inputValue()).toBe(CHILD);
      await expect.poll(() => isFocused(field)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
    },
    60_000,
  );
});
