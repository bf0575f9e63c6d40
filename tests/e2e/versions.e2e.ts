import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import raEn from '../../locales/en/ra.json';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import resourcesZh from '../../locales/zh-CN/resources.json';
import shell from '../../locales/zh-CN/system-shell.json';
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

// The role screen (hand-written, RoleEdit) has what the generated edit page has: two users in two browser
// contexts see "<name> is editing" of each other, a save by one shows the other the saved-elsewhere notice
// at once, a stale save shows the conflict view, and the history panel restores a version behind its confirm.
const roleFields = resourcesZh.roles.fields;

describe('versions on the role screen', () => {
  test('presence, the saved-elsewhere notice, the conflict view and history restore', async () => {
    const run = Date.now();
    const created = await apiData(server.baseURL, 'POST', 'v1/user/roles', {
      token,
      body: { name: `版本角色${run}`, intro: 'first', state: true, permissions: { menu_ids: [] } },
    });
    expect(created.status).toBe(201);
    const roleId = (created.data as { id: string }).id;
    // A second administrator: an account that joins a staff record with is_admin.
    const other = { username: `editor${run}`, password: 'Second-editor-pass-2026' };
    const user = await apiData(server.baseURL, 'POST', 'v1/user/users', {
      token,
      body: { ...other, name: '第二编辑' },
    });
    expect(user.status).toBe(201);
    const staff = await apiData(server.baseURL, 'POST', 'v1/user/staff', {
      token,
      body: { name: `第二编辑${run}`, is_admin: 1 },
    });
    expect(staff.status).toBe(201);
    const otherToken = await apiSignIn(server.baseURL, other.username, other.password);
    const invitation = new URL((staff.data as { invitation_url: string }).invitation_url).searchParams.get(
      'invitation',
    );
    const joined = await apiData(server.baseURL, 'POST', 'v1/user/join', {
      token: otherToken,
      body: { invitation },
    });
    expect(joined.status).toBeLessThan(300);

    const mine = await editor(false);
    const context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
    contexts.push(context);
    const theirs = await context.newPage();
    theirs.setDefaultTimeout(20_000);
    await signIn(theirs, other);
    await mine.goto(`/settings/roles/${roleId}`);
    await theirs.goto(`/settings/roles/${roleId}`);
    const step = (what: string) => console.info(`[role versions] ${what}`);
    step('both forms open');
    // Each sees the other editing, well before the 20 s heartbeat: the form opened second learns of the one
    // already open from its answer, not from its next heartbeat.
    const [, editing] = engine.versions.editing.split('}}');
    await mine.getByText(new RegExp(`${editing!.trim()}$`)).waitFor({ timeout: 10_000 });
    await theirs.getByText(new RegExp(`${editing!.trim()}$`)).waitFor({ timeout: 10_000 });

    step('presence seen both ways');
    // They save first; this form hears of it before trying to save.
    await theirs.getByRole('textbox', { name: label(roleFields.intro) }).fill('theirs');
    await theirs.getByRole('button', { name: ra.action.save }).click();
    await mine.getByText(shell.events.changed).waitFor();

    step('saved-elsewhere notice seen');
    // This form still holds version 1: its save is the conflict view; theirs is taken for the intro, the
    // name typed here is kept, and the form saves over version 2.
    await mine.getByRole('textbox', { name: label(roleFields.name) }).fill(`版本角色${run}!`);
    await mine.getByRole('textbox', { name: label(roleFields.intro) }).fill('mine');
    await mine.getByRole('button', { name: ra.action.save }).click();
    const conflict = mine.getByTestId('version-conflict');
    await conflict.getByText(engine.versions.conflict_title).waitFor();
    await conflict
      .locator('tr[data-field="intro"]')
      .getByRole('button', { name: engine.versions.take_theirs })
      .click();
    await mine.getByRole('button', { name: ra.action.save }).click();
    const role = async () =>
      (await apiData(server.baseURL, 'GET', `v1/user/roles/${roleId}`, { token })).data as Record<
        string,
        unknown
      >;
    await expect.poll(role).toMatchObject({ name: `版本角色${run}!`, intro: 'theirs', version: 3 });

    step('conflict resolved and saved');
    // History: restore version 1 behind the confirm.
    await mine.goto(`/settings/roles/${roleId}`);
    const history = mine.getByRole('region', { name: engine.versions.history });
    const first = history.locator('li[data-version="1"]');
    await first.getByRole('button', { name: engine.versions.restore }).click();
    await mine.getByText(t(engine.versions.restore_confirm_title, { version: 1 })).waitFor();
    await mine.getByRole('button', { name: ra.action.confirm }).click();
    await mine.getByText(t(engine.versions.restored, { version: 1 })).waitFor();
    await expect.poll(role).toMatchObject({ name: `版本角色${run}`, intro: 'first', version: 4 });
  }, 240_000);
});
