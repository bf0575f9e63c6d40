import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import appEn from '../../locales/en/app.json';
import appZh from '../../locales/zh-CN/app.json';
import engineEn from '../../locales/en/engine.json';
import engineZh from '../../locales/zh-CN/engine.json';
import { apiData, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 32 item 6: the command palette finds a staff member by part of the name and opens the record with
// the keyboard alone, opens a page by name, closes on Escape with focus back on its button, and axe finds
// no serious violation in it: at desk size in English (Ctrl-K) and on a phone in Chinese (the app bar's
// search button).
const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const VARIANTS = [
  { name: 'desk, en', viewport: DESK, locale: 'en', engine: engineEn, app: appEn },
  { name: 'phone, zh-CN', viewport: PHONE, locale: 'zh-CN', engine: engineZh, app: appZh },
] as const;

let browser: Browser;
const tag = Math.random().toString(36).slice(2, 8);
const person = { name: `Quokkina ${tag}`, id: '' };

beforeAll(async () => {
  const { username, password } = adminCredentials();
  const token = await apiSignIn(baseURL(), username, password);
  const { status, data } = await apiData(baseURL(), 'POST', 'v1/user/staff', {
    token,
    body: { name: person.name },
  });
  expect(status).toBe(201);
  person.id = (data as { id: string }).id;
  // A second match, ranked after the first (a longer label), for the arrows to move to.
  const junior = await apiData(baseURL(), 'POST', 'v1/user/staff', {
    token,
    body: { name: `${person.name} Junior` },
  });
  expect(junior.status).toBe(201);
  // Records named like the pages, in both languages: the page named exactly as typed must stay the choice
  // when they arrive (a CI run pressed Enter on a record the suite had left matching "Departments").
  for (const name of [appEn.menu.departments, appZh.menu.departments]) {
    const namesake = await apiData(baseURL(), 'POST', 'v1/user/departments', {
      token,
      body: { name: `${name} ${tag}`, parent_id: '0' },
    });
    expect(namesake.status).toBe(201);
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe.each(VARIANTS)('the command palette ($name)', ({ viewport, locale, engine, app }) => {
  let context: BrowserContext;
  let page: Page;
  const isPhone = viewport.width < 600;

  beforeAll(async () => {
    context = await newContext(browser, { viewport, isMobile: isPhone });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, adminCredentials());
    await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  });
  afterAll(async () => {
    await context?.close();
  });

  const button = () => page.getByRole('button', { name: engine.palette.open });
  const combobox = () => page.getByRole('combobox', { name: engine.palette.label });
  async function open(): Promise<void> {
    if (isPhone) await button().click();
    else await page.keyboard.press('Control+K');
    await combobox().waitFor();
  }

  test('finds a staff member by part of the name; arrows and Enter open the record', async () => {
    await page.goto('/settings/staff');
    await page.locator('main').first().waitFor();
    await open();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.type(`kkina ${tag}`);
    const option = page.getByRole('option', { name: new RegExp(`${person.name}(?! Junior)`) });
    await option.waitFor();
    await page.getByRole('option', { name: new RegExp(`${person.name} Junior`) }).waitFor();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await option.getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('ArrowUp');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/settings/staff/${person.id}`);
    await expect.poll(() => combobox().count()).toBe(0);
  });

  test('opens a page by its name', async () => {
    await open();
    await page.keyboard.type(app.menu.departments);
    const option = page.getByRole('option', { name: app.menu.departments, exact: true });
    await option.waitFor();
    // The department named like the page is found too, and the page stays chosen.
    await page.getByRole('option', { name: new RegExp(`${app.menu.departments} ${tag}`) }).waitFor();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/settings/departments');
  });

  test('Escape closes it and gives focus back to the search button', async () => {
    await button().click();
    await combobox().waitFor();
    await page.keyboard.press('Escape');
    await combobox().waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null))
      .toBe(engine.palette.open);
  });
});
