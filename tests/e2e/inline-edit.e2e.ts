import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import raEn from '../../locales/en/ra.json';
import { apiData, apiSignIn } from './helpers/api.ts';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';

// Issue 32 item 2 in the browser, on the gadgets fixture's generated list at desk size: a name cell edited by
// keyboard only (header checkbox, ArrowDown into the row, ArrowRight into the cell, Enter, type, Enter), seen
// again after a reload; a save someone else made in between shows in the cell with the typed value kept, and
// the next Enter writes over it; axe finds no serious violation with the editor open.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let token = '';
let id = '';
const stamp = Date.now();

beforeAll(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser();
  token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  const created = await apiData(server.baseURL, 'POST', 'v1/test/gadgets', {
    token,
    body: { name: `Inline ${stamp}`, sku: `IN-${stamp}`, price: 1 },
  });
  expect(created.status).toBe(201);
  id = (created.data as { id: string }).id;
}, 900_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
});

async function englishPage(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
  });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
  await context.addInitScript(() => localStorage.setItem('locale', 'en'));
  return page;
}

async function gadget(): Promise<Record<string, unknown>> {
  const { data } = await apiData(server.baseURL, 'GET', `v1/test/gadgets/${id}`, { token });
  return data as Record<string, unknown>;
}

/** The list narrowed to the test's gadget, the focus moved into its name cell and the editor opened by keys. */
async function openNameEditor(page: Page): Promise<void> {
  await page.goto(`/settings/gadgets?filter=${encodeURIComponent(JSON.stringify({ q: `${stamp}` }))}`);
  await page
    .getByRole('cell', { name: /^Inline/ })
    .first()
    .waitFor();
  await page.getByRole('checkbox', { name: raEn.action.select_all }).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-grid-cell')))
    .toBe('name');
  await page.keyboard.press('Enter');
  await page.getByRole('group', { name: /^Editing Name/ }).waitFor();
}

describe('inline editing in a generated list', () => {
  test('a cell edited by keyboard only is saved and still there after a reload', async () => {
    const page = await englishPage();
    await openNameEditor(page);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(`Inline kb ${stamp}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => gadget()).toMatchObject({ name: `Inline kb ${stamp}`, version: 2 });
    await page.reload();
    await page.getByRole('cell', { name: `Inline kb ${stamp}` }).waitFor();
  });

  test('axe finds no serious violation on the list with an open editor', async () => {
    const page = await englishPage();
    await openNameEditor(page);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a save from elsewhere shows in the cell; the typed value stays and the retry writes over it', async () => {
    const page = await englishPage();
    await openNameEditor(page);
    const before = (await gadget()).version as number;
    // Someone else saves the record while the cell is open (a second client of the API).
    const theirs = await apiData(server.baseURL, 'PATCH', `v1/test/gadgets/${id}`, {
      token,
      body: { name: `Inline theirs ${stamp}`, version: before },
    });
    expect(theirs.status).toBe(200);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(`Inline mine ${stamp}`);
    await page.keyboard.press('Enter');
    const editor = page.getByRole('group', { name: /^Editing Name/ });
    await editor.getByRole('alert').getByText(`Inline theirs ${stamp}`, { exact: false }).waitFor();
    expect(await editor.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe(`Inline mine ${stamp}`);
    expect(engineEn.inline.conflict).toContain('{{value}}');
    await editor.getByRole('textbox', { name: /^Name/ }).press('Enter');
    await expect.poll(() => gadget()).toMatchObject({ name: `Inline mine ${stamp}`, version: before + 2 });
    await page.getByRole('cell', { name: `Inline mine ${stamp}` }).waitFor();
  });
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The serious and critical violations on the page, as `rule: help (first targets)` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: unknown[] };
    return result.violations;
  });
  return (violations as Violation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    );
}
