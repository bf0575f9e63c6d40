import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import engineZh from '../../locales/zh-CN/engine.json';
import raEn from '../../locales/en/ra.json';
import raZh from '../../locales/zh-CN/ra.json';
import { FIXTURE_LABELS } from '../fixtures/registry.ts';
import { apiData, apiSignIn } from './helpers/api.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 32 item 3 in the browser, on the gadgets fixture's generated list: two rows selected, "Edit
// selected", the name picked and set, the count read ("2 records will change"), confirmed; the rows show the
// new name, the API has it, and the toast offers Undo. At desk size by the keyboard alone (Tab, Space,
// Enter: no pointer), at phone size by taps (the English phone confirms from the input's Enter, see below),
// where Undo is used and puts the names back. Both languages at both sizes; axe finds nothing serious with
// the dialog open. One sign-in for the file (the API's token as the session cookie of every context).
const RUN = Date.now().toString(36);
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));
const VARIANTS = [
  { name: 'desk, zh-CN', locale: 'zh-CN', isPhone: false, engine: engineZh, ra: raZh },
  { name: 'desk, en', locale: 'en', isPhone: false, engine: engineEn, ra: raEn },
  { name: 'phone, zh-CN', locale: 'zh-CN', isPhone: true, engine: engineZh, ra: raZh },
  { name: 'phone, en', locale: 'en', isPhone: true, engine: engineEn, ra: raEn },
] as const;
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: E2eServer;
let browser: Browser;
let token = '';
/** The ids of each variant's two gadgets, by the variant's name prefix. */
const ids = new Map<string, string[]>();
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser();
  token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  for (const [index] of VARIANTS.entries()) {
    for (const n of [1, 2]) {
      const res = await apiData(server.baseURL, 'POST', 'v1/test/gadgets', {
        token,
        body: { name: `BK${RUN}v${index} ${n}`, sku: `BK-${RUN}-${index}-${n}`, price: 1 },
      });
      expect(res.status).toBe(201);
      const prefix = `BK${RUN}v${index}`;
      ids.set(prefix, [...(ids.get(prefix) ?? []), (res.data as { id: string }).id]);
    }
  }
}, 900_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function pageAt(isPhone: boolean, locale: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    locale: 'en-US',
    viewport: isPhone ? PHONE : DESK,
    isMobile: isPhone,
  });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: server.baseURL }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** The names of the variant's gadgets, through the API. */
async function namesOf(prefix: string): Promise<string[]> {
  const names: string[] = [];
  for (const id of ids.get(prefix) ?? []) {
    const { data } = await apiData(server.baseURL, 'GET', `v1/test/gadgets/${id}`, { token });
    names.push((data as { name: string }).name);
  }
  return names.sort();
}

/** Presses Tab (Shift+Tab when `isBackward`) until `target` has the focus; fails past `limit` presses. */
async function tabTo(page: Page, target: Locator, { isBackward = false, limit = 80 } = {}): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(isBackward ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${String(target)} not reached by ${limit} presses of Tab`);
}

describe.each(VARIANTS.map((v, index) => ({ ...v, index })))(
  'bulk edit ($name)',
  ({ index, locale, isPhone, engine, ra }) => {
    test('rows selected, a field set, the count seen, confirmed; the list changes and the toast offers Undo', async () => {
      const prefix = `BK${RUN}v${index}`;
      const fields = (FIXTURE_LABELS[locale].gadgets as { fields: Record<string, string> }).fields;
      const changed = `${prefix} ${locale === 'en' ? 'changed' : '已改'}`;
      const page = await pageAt(isPhone, locale);
      await page.goto(`/settings/gadgets?filter=${encodeURIComponent(JSON.stringify({ q: prefix }))}`);
      await page.getByText(`${prefix} 2`).first().waitFor();
      const edit = page.getByRole('button', { name: engine.bulk_edit.open });
      const dialog = page.getByRole('dialog', { name: t(engine.bulk_edit.title, { count: 2 }) });
      const pick = dialog.getByRole('checkbox', { name: fields.name });
      const input = dialog.getByRole('textbox', { name: new RegExp(`^${fields.name}`) });

      if (isPhone) {
        // Taps: each card's box names its record.
        for (const n of [1, 2]) await page.getByRole('checkbox', { name: `${prefix} ${n}` }).check();
        await page.getByText(t(ra.action.bulk_actions_other, { smart_count: 2 })).waitFor();
        await edit.click();
        await dialog.waitFor();
        await pick.check();
        await input.fill(changed);
      } else {
        // The keyboard alone: from the search box to the header's box (Space selects the page's rows), back
        // to the toolbar's "Edit selected" (Enter), through the dialog's field boxes to the input.
        await page.getByRole('textbox', { name: ra.action.search }).focus();
        await tabTo(page, page.getByRole('checkbox', { name: ra.action.select_all }));
        await page.keyboard.press('Space');
        await page.getByText(t(ra.action.bulk_actions_other, { smart_count: 2 })).waitFor();
        await tabTo(page, edit, { isBackward: true });
        await page.keyboard.press('Enter');
        await dialog.waitFor();
        await tabTo(page, pick);
        await page.keyboard.press('Space');
        await tabTo(page, input);
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(changed);
      }
      await dialog.getByText(t(engine.bulk_edit.will_change_other, { smart_count: 2 })).waitFor();
      const confirm = dialog.getByRole('button', { name: t(engine.bulk_edit.confirm, { count: 2 }) });
      expect(await confirm.isEnabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      if (isPhone) {
        // The open bulk bar wraps its buttons, so the page stays as wide as the phone and a tap lands.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
        await confirm.click();
      } else {
        await tabTo(page, confirm);
        await page.keyboard.press('Enter');
      }
      await dialog.waitFor({ state: 'detached' });
      const toast = page.getByText(t(engine.undo_ui.updated, { count: 2 }));
      await toast.waitFor();
      const undo = page.getByRole('button', { name: engine.undo_ui.undo });
      await undo.waitFor();
      await expect.poll(() => namesOf(prefix)).toEqual([changed, changed]);
      await expect.poll(() => page.getByText(changed, { exact: true }).count()).toBe(2);

      if (isPhone) {
        // Undo puts both names back.
        await undo.click();
        await expect.poll(() => namesOf(prefix)).toEqual([`${prefix} 1`, `${prefix} 2`]);
        await page.getByText(`${prefix} 1`, { exact: true }).first().waitFor();
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        isPhone ? PHONE.width : DESK.width,
      );
    });
  },
);
