import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import resources from '../../locales/zh-CN/resources-content.json';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';
import { apiData, apiSignIn } from './helpers/api.ts';

// Issue 13, item 5: the generated lists' tables at desk size (column chooser and density remembered per list
// across a reload, sticky headers) and, at phone size, cards instead of a clipped table, with selection, bulk
// actions, pagination, export and the no-results state still there. On /settings/dictionaries (a generated
// list), seeded through the API. Texts come from the zh-CN catalogues, the app's default language.
const F = resources.dictionaries.fields;
const SEEDED = 24;
const POLL = { timeout: 15_000 };
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

let browser: Browser;
let token: string;
const ids: Record<string, string> = {};

function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  return apiData(baseURL(), method, path, { token, body });
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  token = await apiSignIn(baseURL(), username, password);
  for (let i = 1; i <= SEEDED; i++) {
    const name = `表格 ${String(i).padStart(2, '0')}`;
    const created = await api('POST', 'v1/dictionary/types', { name, slug: `table_${i}`, data: [] });
    expect(created.status).toBe(201);
    ids[name] = (created.data as { id: string }).id;
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** The dictionaries list holding only the seeded ones (search "表格"), sorted by name, 50 a page. */
const LIST = `/settings/dictionaries?filter=${encodeURIComponent(JSON.stringify({ q: '表格' }))}&sort=name&order=ASC&perPage=50`;

describe('tables at desk size (1440x900)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, adminCredentials());
  });

  afterAll(async () => {
    await context?.close();
  });

  const headers = () => page.getByRole('columnheader').allTextContents();

  test('the column chooser and the density toggle are remembered for the list across a reload', async () => {
    await page.goto(LIST);
    await page.getByRole('cell', { name: '表格 01' }).waitFor();
    expect((await headers()).join('|')).toContain(F.slug);
    const compact = page.getByRole('button', { name: engine.table.compact });
    expect(await compact.getAttribute('aria-pressed')).toBe('true');
    const rowHeight = () =>
      page
        .getByRole('row')
        .filter({ hasText: '表格 01' })
        .evaluate((r) => r.clientHeight);
    const compactHeight = await rowHeight();

    await page.getByRole('button', { name: ra.action.select_columns }).click();
    await page.getByRole('switch', { name: F.slug }).click();
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await headers()).join('|'), POLL).not.toContain(F.slug);
    await compact.click();
    expect(await compact.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(rowHeight, POLL).toBeGreaterThan(compactHeight);

    await page.reload();
    await page.getByRole('cell', { name: '表格 01' }).waitFor();
    expect((await headers()).join('|')).not.toContain(F.slug);
    expect((await headers()).join('|')).toContain(F.name);
    expect(await compact.getAttribute('aria-pressed')).toBe('false');
    expect(await rowHeight()).toBeGreaterThan(compactHeight);

    // Another list keeps its own: the users list still has its default density.
    await page.goto('/settings/users');
    await page.getByRole('table').waitFor();
    expect(await page.getByRole('button', { name: engine.table.compact }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  test('the column headers stay in view below the top bar while the rows scroll', async () => {
    await page.goto(LIST);
    await page.getByRole('cell', { name: '表格 24' }).waitFor();
    const header = page.getByRole('columnheader', { name: new RegExp(F.name) });
    const bar = await page.locator('header').first().boundingBox();
    await page.mouse.wheel(0, 900);
    await expect.poll(() => page.evaluate(() => window.scrollY), POLL).toBeGreaterThan(300);
    // The first rows have scrolled away, the header has not.
    await expect
      .poll(async () => (await page.getByRole('cell', { name: '表格 01' }).boundingBox())?.y ?? 0, POLL)
      .toBeLessThan(0);
    const box = await header.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(bar!.height - 1);
    expect(box!.y).toBeLessThan(bar!.height + 8);
    // And it is the header that is seen there, not a row under it.
    const seen = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('th') !== null, {
      x: box!.x + box!.width / 2,
      y: box!.y + box!.height / 2,
    });
    expect(seen).toBe(true);
  });
});

describe('tables at phone size (390x844)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, adminCredentials());
  });

  afterAll(async () => {
    await context?.close();
  });

  const cards = () => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });

  test('records are cards with their fields, not a table wider than the screen', async () => {
    await page.goto(LIST);
    await page.getByRole('heading', { name: '表格 01', level: 2 }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await cards().count()).toBe(SEEDED);
    const first = cards().filter({ hasText: '表格 01' });
    expect(await first.locator('dt').allTextContents()).toContain(F.slug);
    expect(await first.locator('dd').allTextContents()).toContain('table_1');
    // Its row actions: edit goes to the record.
    expect(await first.getByRole('button', { name: ra.action.delete }).count()).toBe(1);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    // The list's own parts are there: export, pagination.
    await page.getByRole('button', { name: engine.action.export }).waitFor();
    await page.getByText(/1-24/).first().waitFor();
    await first.getByRole('link', { name: '表格 01' }).click();
    await page.waitForURL((url) => url.pathname === `/settings/dictionaries/${ids['表格 01']}`);
  });

  test('select cards, then delete them with the bulk action', async () => {
    await page.goto(LIST);
    await page.getByRole('heading', { name: '表格 24', level: 2 }).waitFor();
    for (const name of ['表格 23', '表格 24'])
      await page.getByRole('checkbox', { name: t(engine.table.select_record, { name }) }).check();
    const bulkBar = page.locator('[data-test="bulk-actions-toolbar"]');
    await bulkBar.getByText(t(ra.action.bulk_actions_other, { smart_count: 2 })).waitFor();
    await bulkBar.getByRole('button', { name: ra.action.delete }).click();
    await page.getByRole('dialog').getByRole('button', { name: ra.action.confirm }).click();
    await expect.poll(() => cards().count(), POLL).toBe(SEEDED - 2);
    expect((await api('GET', `v1/dictionary/types/${ids['表格 24']}`)).status).toBe(404);
    expect((await api('GET', `v1/dictionary/types/${ids['表格 22']}`)).status).toBe(200);
  });

  test('a search that finds nothing says so', async () => {
    await page.goto(LIST);
    await page.getByRole('heading', { name: '表格 01', level: 2 }).waitFor();
    await page.getByPlaceholder(ra.action.search).fill('zzz-nothing-like-this');
    // On a phone react-admin's buttons are icons named by their label.
    await page.getByRole('button', { name: ra.navigation.clear_filters }).waitFor();
    expect(await cards().count()).toBe(0);
  });
});
