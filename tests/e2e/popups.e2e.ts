import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import app from '../../locales/zh-CN/app.json';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { DIST_E2E, startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';
import { apiData, apiSignIn } from './helpers/api.ts';

// MUI's Popper (tooltips), Menu, Popover and Dialog (with Modal) come with the list page as MUI ships them
// (issue 29 item 2 removed the build's on-demand stand-ins). On a freshly loaded list page each one's first
// open works by pointer and keyboard, with the focus and roles of the real component; their code is
// downloaded with the page, before the first click.
// Texts come from the zh-CN catalogues, the app's default language.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

/** The build's chunks holding the real components (found by their theme names, which minifying keeps). */
let popupChunks: string[];
/** The scripts the page requested since the last page load. */
let scripts: string[] = [];

const t = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

function api(method: string, apiPath: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  return apiData(server.baseURL, method, apiPath, { token, body, language: 'en' });
}

beforeAll(async () => {
  server = await startFixtureServer();
  const assets = path.join(DIST_E2E, 'assets');
  popupChunks = fs
    .readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .filter((file) =>
      /["'](MuiPopper|MuiModal|MuiPopover|MuiMenu|MuiDialog)["']/.test(
        fs.readFileSync(path.join(assets, file), 'utf8'),
      ),
    )
    .map((file) => `/assets/${file}`);
  expect(popupChunks.length).toBeGreaterThanOrEqual(1);
  token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  const created = await api('POST', 'v1/test/gadgets', { name: 'On demand row', sku: 'OD-1', price: 1 });
  expect(created.status).toBe(201);

  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
  // Routing also turns the HTTP cache off: every page load requests its scripts again.
  await context.route(
    (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'),
    async (route) => {
      scripts.push(new URL(route.request().url()).pathname);
      await route.continue();
    },
  );
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** A fresh load of the gadgets list, untouched: the real components came with it. */
beforeEach(async () => {
  scripts = [];
  await page.goto(`/settings/gadgets?filter=${encodeURIComponent('{}')}`);
  await page.getByRole('cell', { name: 'On demand row' }).waitFor();
  expect(popupChunks.filter((chunk) => !scripts.includes(chunk))).toEqual([]);
});

const focused = () =>
  page.evaluate(() => {
    const element = document.activeElement;
    return {
      role: element?.getAttribute('role') ?? element?.tagName.toLowerCase(),
      text: element?.textContent ?? '',
      label: element?.getAttribute('aria-label') ?? '',
      inDialog: Boolean(element?.closest('.MuiDialog-root')),
    };
  });

describe('closed MUI components open at once on a fresh list page', () => {
  test("a tooltip: pointing at a control shows it, with the control's name", async () => {
    const close = page.getByRole('link', { name: app.settings.close });
    await close.hover();
    await page.getByRole('tooltip', { name: app.settings.close }).waitFor();
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
  });

  test('"Add filter" from the keyboard: the menu opens on its first item, arrows move, Escape gives the focus back', async () => {
    const addFilter = page.getByRole('button', { name: ra.action.add_filter });
    await addFilter.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await expect.poll(async () => (await focused()).role).toBe('menuitemcheckbox');
    const first = (await focused()).text;
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused()).text).not.toBe(first);
    expect((await focused()).role).toBe('menuitemcheckbox');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).text).toBe(ra.action.add_filter);
  });

  test('a delete confirmation: opens by click, holds the focus, Cancel closes it and nothing is deleted', async () => {
    const row = page.locator('table tbody tr').filter({ hasText: 'On demand row' });
    await row.getByRole('button', { name: ra.action.delete }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(t(engine.delete.confirm, { name: 'On demand row' })).waitFor();
    await expect.poll(async () => (await focused()).inDialog).toBe(true);
    // Tab stays in the dialog, on its buttons.
    for (let i = 0; i < 3; i += 1) {
      await page.keyboard.press('Tab');
      expect((await focused()).inDialog).toBe(true);
    }
    await dialog.getByRole('button', { name: ra.action.cancel }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).text).toBe(ra.action.delete);
    await page.getByRole('cell', { name: 'On demand row' }).waitFor();
    // A second open, from the keyboard: Escape closes it.
    await row.getByRole('button', { name: ra.action.delete }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).text).toBe(ra.action.delete);
  });
});
