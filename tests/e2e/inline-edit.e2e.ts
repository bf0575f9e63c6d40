import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import raEn from '../../locales/en/ra.json';
import raZh from '../../locales/zh-CN/ra.json';
import { apiData, apiSignIn } from './helpers/api.ts';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 32 item 2 in the browser, on the gadgets fixture's generated list at desk size: a name cell edited by
// keyboard only (header checkbox, ArrowDown into the row, ArrowRight into the cell, Enter, type, Enter), seen
// again after a reload; in Chinese the editor is announced in Chinese and passes axe, and a phone gets the
// list as cards, without cell editors; a click selects a cell without opening the record and the cells are
// one tab stop; two staff members in two browser contexts edit the same cell: the later save shows theirs in
// the cell with the typed value kept, and the next Enter writes over it; axe finds no serious violation with
// the editor open.

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let token = '';
let memberToken = '';
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
  memberToken = await secondStaffMember();
}, 900_000);

/** A second staff member who may read and update gadgets (a role, a user, the staff record it joins). */
async function secondStaffMember(): Promise<string> {
  const call = async (method: string, path: string, body: unknown, as = token) => {
    const answer = await apiData(server.baseURL, method, path, { token: as, body });
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.data)}`).toBeLessThan(300);
    return answer.data as Record<string, unknown>;
  };
  const role = await call('POST', 'v1/user/roles', {
    name: `Inline editors ${stamp}`,
    state: true,
    permissions: { menu_ids: ['test', 'test.gadgets', 'test.gadgets.update'] },
  });
  const username = `inline${stamp}`;
  const password = 'Inline-pass-2026-grid';
  await call('POST', 'v1/user/users', { username, password, name: 'Inline editor' });
  const staff = await call('POST', 'v1/user/staff', { name: `Inline editor ${stamp}`, role_ids: [role.id] });
  const member = await apiSignIn(server.baseURL, username, password);
  const invitation = new URL(String(staff.invitation_url)).searchParams.get('invitation');
  await call('POST', 'v1/user/join', { invitation }, member);
  return member;
}

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
});

/** A desk-size page in English, signed in as the administrator or, with `asToken`, by that token's cookie. */
async function englishPage(asToken?: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
  });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  if (asToken) await context.addCookies([{ name: 'access_token', value: asToken, url: server.baseURL }]);
  else await signIn(page, E2E_ADMIN);
  await context.addInitScript(() => localStorage.setItem('locale', 'en'));
  return page;
}

async function gadget(): Promise<Record<string, unknown>> {
  const { data } = await apiData(server.baseURL, 'GET', `v1/test/gadgets/${id}`, { token });
  return data as Record<string, unknown>;
}

/** A page in Chinese (the default language), signed in as the administrator, at the given size. */
async function chinesePage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseURL, locale: 'zh-CN', viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
  return page;
}

const listOfTheGadget = () =>
  `/settings/gadgets?filter=${encodeURIComponent(JSON.stringify({ q: `${stamp}` }))}`;

/** The list narrowed to the test's gadget, the focus moved into its name cell and the editor opened by keys. */
async function openNameEditor(
  page: Page,
  { selectAll = raEn.action.select_all, editing = /^Editing Name/ } = {},
): Promise<void> {
  await page.goto(listOfTheGadget());
  await page
    .getByRole('cell', { name: /^Inline/ })
    .first()
    .waitFor();
  await page.getByRole('checkbox', { name: selectAll }).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-grid-cell')))
    .toBe('name');
  await page.keyboard.press('Enter');
  await page.getByRole('group', { name: editing }).waitFor();
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

  test('in Chinese the editor is announced in Chinese and axe finds nothing serious; a phone gets cards', async () => {
    const desk = await chinesePage({ width: 1280, height: 800 });
    await openNameEditor(desk, { selectAll: raZh.action.select_all, editing: /^正在编辑/ });
    expect(await seriousViolations(desk)).toEqual([]);
    // Below 600px the list is cards (RecordCards): no cell takes an editor there, and the cards pass axe.
    const phone = await chinesePage({ width: 390, height: 844 });
    await phone.goto(listOfTheGadget());
    await phone
      .getByText(/^Inline/)
      .first()
      .waitFor();
    expect(await phone.locator('[data-grid-cell]').count()).toBe(0);
    expect(await seriousViolations(phone)).toEqual([]);
  });

  test('a click selects a cell without opening the record; the cells are one tab stop', async () => {
    const page = await englishPage();
    await page.goto(listOfTheGadget());
    const cell = page.locator('tbody [data-grid-cell="name"]').first();
    await cell.click();
    await expect.poll(() => cell.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/settings/gadgets');
    expect(await page.getByRole('group', { name: /^Editing Name/ }).count()).toBe(0);
    expect(await page.locator('tbody [data-grid-cell][tabindex="0"]').count()).toBe(1);
    // Tab leaves the cells (the next stop is outside them); Shift+Tab comes back to the cell left.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-grid-cell'))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => cell.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  test('two staff members edit one cell: the later save shows theirs and keeps the typed value', async () => {
    const mine = await englishPage();
    const theirs = await englishPage(memberToken);
    await openNameEditor(mine);
    await openNameEditor(theirs);
    const before = (await gadget()).version as number;
    // The other staff member saves first, from its own browser.
    await theirs.keyboard.press('ControlOrMeta+a');
    await theirs.keyboard.type(`Inline theirs ${stamp}`);
    await theirs.keyboard.press('Enter');
    await theirs.getByRole('cell', { name: `Inline theirs ${stamp}` }).waitFor();
    await expect.poll(() => gadget()).toMatchObject({ name: `Inline theirs ${stamp}`, version: before + 1 });
    await mine.keyboard.press('ControlOrMeta+a');
    await mine.keyboard.type(`Inline mine ${stamp}`);
    await mine.keyboard.press('Enter');
    const editor = mine.getByRole('group', { name: /^Editing Name/ });
    await editor.getByRole('alert').getByText(`Inline theirs ${stamp}`, { exact: false }).waitFor();
    expect(await editor.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe(`Inline mine ${stamp}`);
    expect(engineEn.inline.conflict).toContain('{{value}}');
    await editor.getByRole('textbox', { name: /^Name/ }).press('Enter');
    await expect.poll(() => gadget()).toMatchObject({ name: `Inline mine ${stamp}`, version: before + 2 });
    await mine.getByRole('cell', { name: `Inline mine ${stamp}` }).waitFor();
  });
});
