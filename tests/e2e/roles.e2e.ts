import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import app from '../../locales/zh-CN/app.json';
import people from '../../locales/zh-CN/resources-people.json';
import settings from '../../locales/zh-CN/settings.json';
import { adminCredentials, launchBrowser, newContext, signIn } from './helpers/browser.ts';

// Issue 12, item 2, in the browser: the role editor shows a group half-checked while only some of its pages
// are ticked (and a page while only some of its actions are), offers on each page only the actions the
// catalogue declares (schemas/permissions.ts), and saves what it shows. Texts from the zh-CN catalogues.
let browser: Browser;
let context: BrowserContext;
let page: Page;

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

/** The box of permission `key`, by its accessible name: words only, an action's with its page's title. */
const box = (key: string, name: string): Locator =>
  page
    .getByRole('group', { name: 'permissions' })
    .getByRole('checkbox', { name, exact: true })
    .and(page.locator(`[data-permission="${key}"]`));
const ariaChecked = (locator: Locator) => locator.evaluate((el) => el.getAttribute('aria-checked'));
const isMixed = (locator: Locator) =>
  locator.evaluate(
    (el) => (el as HTMLInputElement).indeterminate && el.getAttribute('aria-checked') === 'mixed',
  );
/** Every permission name the editor offers (each box's `data-permission`; its accessible name is words). */
const offered = () =>
  page
    .getByRole('group', { name: 'permissions' })
    .getByRole('checkbox')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-permission') ?? ''));

describe('role editor', () => {
  test('a group is half-checked while only some names below it are, and full when all are', async () => {
    await page.goto('/settings/roles/create');
    await page.getByRole('textbox', { name: people.roles.fields.name }).fill('字典管理员');
    const group = box('system.settings', app.menu.settings);
    await box('system.settings.dictionaries', app.menu.dictionaries).check();
    await box('system.settings.resources', app.menu.resources).check();
    expect(await isMixed(group)).toBe(true);
    // The box draws the half-checked state (MUI's indeterminate class on the checkbox root), not the tick.
    expect(
      await group.evaluate((el) => el.parentElement?.classList.contains('MuiCheckbox-indeterminate')),
    ).toBe(true);

    // A group is full once every name below it is: System's pages and their actions.
    const system = box('system.system', app.menu.system);
    await box('system.system.monitor', app.menu.monitor).check();
    expect(await isMixed(system)).toBe(true);
    await box('system.system.logs', app.menu.logs).check();
    for (const [action, title] of [
      ['create', '新增'],
      ['update', '修改'],
      ['delete', '删除'],
    ])
      await box(`system.system.tasks.${action}`, `${app.menu.tasks} · ${title!}`).check();
    await box('system.system.jobs.update', `${app.menu.jobs} · 修改`).check();
    expect(await isMixed(system)).toBe(false);
    expect(await system.isChecked()).toBe(true);

    // One action of a page makes that page half-checked, while the group stays half-checked below it.
    await box('system.settings.dictionaries.update', `${app.menu.dictionaries} · 修改`).check();
    expect(await isMixed(box('system.settings.dictionaries', app.menu.dictionaries))).toBe(true);
    expect(await isMixed(group)).toBe(true);
    expect(await ariaChecked(box('system.users', app.menu.users))).toBeNull();
  });

  test('each page offers only the actions it has', async () => {
    await page.goto('/settings/roles/create');
    await box('system.system.monitor', app.menu.monitor).waitFor();
    const names = await offered();
    expect(names.filter((n) => n.startsWith('system.system.monitor.'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('system.system.logs.'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('system.settings.general.'))).toEqual([
      'system.settings.general.update',
    ]);
    expect(names.filter((n) => n.startsWith('system.system.tasks.'))).toEqual([
      'system.system.tasks.create',
      'system.system.tasks.update',
      'system.system.tasks.delete',
    ]);
    expect(names.filter((n) => n.startsWith('system.users.staff.'))).toHaveLength(5);
    // Screen readers read words, never a permission key, and no two boxes share a name.
    const spoken = await page
      .getByRole('group', { name: 'permissions' })
      .getByRole('checkbox')
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    for (const name of spoken) expect(name).not.toMatch(/system\.|^\s*$/);
    expect(new Set(spoken).size).toBe(spoken.length);
    expect(spoken).toContain(`${app.menu.staff} · 新增`);
  });

  test('saving a role with general settings update grants exactly the checked names', async () => {
    await page.goto('/settings/roles/create');
    await page.getByRole('textbox', { name: people.roles.fields.name }).fill('设置编辑');
    await box('system.settings.general.update', `${app.menu.general} · 修改`).check();
    expect(await isMixed(box('system.settings', app.menu.settings))).toBe(true);
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/roles');
    const token = await page.evaluate(() => /access_token=([^;]+)/.exec(document.cookie)?.[1] ?? '');
    const res = await page.request.get('/api/v1/user/roles?search=name:设置编辑', {
      headers: { authorization: `Bearer ${decodeURIComponent(token)}` },
    });
    const role = ((await res.json()) as { data: { data: { permissions: { menu_ids: string[] } }[] } }).data
      .data[0]!;
    expect([...role.permissions.menu_ids].sort()).toEqual([
      'system.settings',
      'system.settings.general',
      'system.settings.general.update',
    ]);
  });

  test('the delivery permission sits under general settings, marked dangerous with the reason', async () => {
    // Issue 27, item 1: whoever decides where reset codes go can take over any account.
    await page.goto('/settings/roles/create');
    const delivery = box('system.settings.delivery', settings.people.roles.grants.delivery);
    await delivery.waitFor();
    const row = page.locator('div', { has: delivery }).last();
    await row.getByText(settings.people.roles.dangerous, { exact: true }).waitFor();
    await row.getByText(settings.people.roles.dangerous_hint).waitFor();
    await delivery.check();
    expect(await box('system.settings.general', app.menu.general).isChecked()).toBe(true);
  });
});
