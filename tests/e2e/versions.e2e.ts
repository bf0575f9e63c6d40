import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import raEn from '../../locales/en/ra.json';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import { FIXTURE_LABELS } from '../fixtures/registry.ts';
import { apiData, apiSignIn } from './helpers/api.ts';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';

// Issue 36 (versions) in the browser, on the gadgets fixture's generated edit page: two browser contexts edit
// one record, one in zh-CN and one in English; the later save meets the conflict form (yours / theirs per
// field), takes theirs for one field and keeps its own for another, and saves; then the history panel
// restores version 1 behind its confirm. Texts come from the catalogues of both languages.
const F = (FIXTURE_LABELS['zh-CN'].gadgets as { fields: Record<string, string> }).fields;
const FEn = (FIXTURE_LABELS.en.gadgets as { fields: Record<string, string> }).fields;
const label = (text: string) => new RegExp(`^${text}( \\*)?$`);
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let token = '';

beforeAll(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser();
  token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
}, 900_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
});

/** A signed-in page; `english` switches the app's language after signing in (localStorage `locale`). */
async function editor(english: boolean): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
  if (english) await context.addInitScript(() => localStorage.setItem('locale', 'en'));
  return page;
}

async function gadget(id: string): Promise<Record<string, unknown>> {
  const { data } = await apiData(server.baseURL, 'GET', `v1/test/gadgets/${id}`, { token });
  return data as Record<string, unknown>;
}

describe('versions on the generated edit page', () => {
  let id = '';

  test('a stale save shows yours and theirs per field; the user picks, saves again, nothing lost', async () => {
    const created = await apiData(server.baseURL, 'POST', 'v1/test/gadgets', {
      token,
      body: { name: 'V original', sku: `V-${Date.now()}`, price: 1 },
    });
    expect(created.status).toBe(201);
    id = (created.data as { id: string }).id;
    const mine = await editor(false);
    const theirs = await editor(true);
    await mine.goto(`/settings/gadgets/${id}`);
    await theirs.goto(`/settings/gadgets/${id}`);
    await mine.getByRole('textbox', { name: label(F.name!) }).waitFor();

    // Someone else (English) saves first.
    await theirs.getByRole('textbox', { name: label(FEn.name!) }).fill('V theirs');
    await theirs.getByRole('button', { name: raEn.action.save }).click();
    await theirs.getByText(engineEn.notification.saved).first().waitFor();
    await expect.poll(async () => (await gadget(id)).version).toBe(2);

    // This form still edits version 1: its save is refused and the conflict form shows.
    await mine.getByRole('textbox', { name: label(F.name!) }).fill('V mine');
    await mine.getByRole('spinbutton', { name: label(F.price!) }).fill('7');
    await mine.getByRole('button', { name: ra.action.save }).click();
    const conflict = mine.getByTestId('version-conflict');
    await conflict.getByText(engine.versions.conflict_title).waitFor();
    const nameRow = conflict.locator('tr[data-field="name"]');
    await expect
      .poll(() => nameRow.locator('td').allTextContents())
      .toEqual(['V mine', 'V theirs', `${engine.versions.keep_yours}${engine.versions.take_theirs}`]);
    // Theirs for the name, mine for the price; then save again over version 2.
    await nameRow.getByRole('button', { name: engine.versions.take_theirs }).click();
    await expect
      .poll(() => mine.getByRole('textbox', { name: label(F.name!) }).inputValue())
      .toBe('V theirs');
    await expect.poll(() => mine.getByRole('spinbutton', { name: label(F.price!) }).inputValue()).toBe('7');
    await mine.getByRole('button', { name: ra.action.save }).click();
    await mine.getByText(engine.notification.saved).first().waitFor();
    await expect.poll(() => gadget(id)).toMatchObject({ name: 'V theirs', price: 7, version: 3 });
  });

  test('the history panel lists the versions and restores one behind a confirm', async () => {
    const page = await editor(false);
    await page.goto(`/settings/gadgets/${id}`);
    const history = page.getByRole('region', { name: engine.versions.history });
    const first = history.locator('li[data-version="1"]');
    await first.getByText(t(engine.versions.version, { version: 1 }), { exact: false }).waitFor();
    await history.locator('li[data-version="3"]').waitFor();
    await first.getByRole('button', { name: engine.versions.restore }).click();
    await page.getByText(t(engine.versions.restore_confirm_title, { version: 1 })).waitFor();
    await page.getByRole('button', { name: ra.action.confirm }).click();
    await page.getByText(t(engine.versions.restored, { version: 1 })).waitFor();
    await expect.poll(() => gadget(id)).toMatchObject({ name: 'V original', price: 1, version: 4 });
    await history.locator('li[data-version="4"]').waitFor();
  });
});
