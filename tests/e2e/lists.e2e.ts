import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import { FIXTURE_LABELS } from '../fixtures/registry.ts';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';
import { apiData, apiSignIn } from './helpers/api.ts';

// Issue 17's browser proof on the gadgets fixture: the list's `q` search box, a filter value holding `;` and
// `:` (escaped on the wire), and bulk actions on selected rows (disable, delete: the atomic bulk calls).
// Texts come from the zh-CN catalogues, the app's default language.
const F = (FIXTURE_LABELS['zh-CN'].gadgets as { fields: Record<string, string> }).fields;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;

/** The API as an outside client calls it (seeding and checking), with the administrator's token. */
function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  return apiData(server.baseURL, method, path, { token, body, language: 'en' });
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startFixtureServer();
  token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  const seed = [
    { name: 'Lists alpha', sku: 'L-1', price: 1, description: 'a needle in here' },
    { name: 'Lists beta', sku: 'L-2', price: 2, email: 'needle@example.com' },
    { name: 'Lists gamma', sku: 'L-3', price: 3 },
    { name: 'Eve:Colon;Semi', sku: 'L-4', price: 4 },
    { name: 'Eve Colon Semi', sku: 'L-5', price: 5 },
  ];
  for (const gadget of seed) {
    const created = await api('POST', 'v1/test/gadgets', gadget);
    expect(created.status).toBe(201);
    ids[gadget.name] = (created.data as { id: string }).id;
  }
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const rows = () => page.locator('table tbody tr');
/** A filter waits for its debounce and a round trip; on a loaded machine that takes more than 1 s. */
const POLL = { timeout: 15_000 };
/** The list with no filter (react-admin otherwise restores the filters it stored for the list). */
const openList = () => page.goto(`/settings/gadgets?filter=${encodeURIComponent('{}')}`);
const cellTexts = () => page.locator('table tbody tr td').allTextContents();

describe('generated lists', () => {
  test('the search box (q) finds the text in any like field', async () => {
    await openList();
    await page.getByRole('cell', { name: 'Lists gamma' }).waitFor();
    await page.getByPlaceholder(ra.action.search).fill('needle');
    await expect.poll(() => rows().count(), POLL).toBe(2);
    const texts = await cellTexts();
    expect(texts).toContain('Lists alpha');
    expect(texts).toContain('Lists beta');
    expect(texts).not.toContain('Lists gamma');
  });

  test('a filter value containing ; and : finds exactly that record', async () => {
    await openList();
    await page.getByRole('cell', { name: 'Lists gamma' }).waitFor();
    await page.getByRole('textbox', { name: F.name }).fill('Eve:Colon;Semi');
    await expect.poll(() => rows().count(), POLL).toBe(1);
    await page.getByRole('cell', { name: 'Eve:Colon;Semi', exact: true }).waitFor();
    // The separators really are in the value: the look-alike without them is not found.
    expect(await page.getByRole('cell', { name: 'Eve Colon Semi' }).count()).toBe(0);
  });

  test('bulk disable, then bulk delete, of the selected rows', async () => {
    await openList();
    await page.getByPlaceholder(ra.action.search).fill('Lists');
    await expect.poll(() => rows().count(), POLL).toBe(3);
    const select = async () => {
      for (const name of ['Lists alpha', 'Lists beta'])
        await rows().filter({ hasText: name }).getByRole('checkbox').check();
    };
    const bulkBar = page.locator('[data-test="bulk-actions-toolbar"]');
    await select();
    await bulkBar.getByRole('button', { name: engine.bulk.disable }).click();
    await page.getByRole('dialog').getByRole('button', { name: ra.action.confirm }).click();
    // Our toast, which offers Undo (the operation's id): "2 changed".
    await page.getByText(engine.undo_ui.updated.replace('{{count}}', '2')).first().waitFor();
    for (const [name, state] of [
      ['Lists alpha', false],
      ['Lists beta', false],
      ['Lists gamma', true],
    ] as const) {
      const record = (await api('GET', `v1/test/gadgets/${ids[name]}`)).data as { state: boolean };
      expect(record.state, name).toBe(state);
    }

    // A successful bulk action clears the selection.
    await expect.poll(() => rows().getByRole('checkbox', { checked: true }).count(), POLL).toBe(0);
    await select();
    await bulkBar.getByRole('button', { name: ra.action.delete }).click();
    await page.getByRole('dialog').getByRole('button', { name: ra.action.confirm }).click();
    await page.getByText(engine.undo_ui.trashed.replace('{{count}}', '2')).first().waitFor();
    await expect.poll(() => rows().count(), POLL).toBe(1);
    await page.getByRole('cell', { name: 'Lists gamma' }).waitFor();
    expect((await api('GET', `v1/test/gadgets/${ids['Lists alpha']}`)).status).toBe(404);
  });
});
