import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import appEn from '../../locales/en/app.json';
import appZh from '../../locales/zh-CN/app.json';
import raEn from '../../locales/en/ra.json';
import raZh from '../../locales/zh-CN/ra.json';
import errorsEn from '../../locales/en/errors.json';
import errorsZh from '../../locales/zh-CN/errors.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 34 in the browser: a caller who may only read gets the show view of a record (no form, no edit or
// save button, no "No Permission" inside it) on generated and hand-written screens; the keyboard paths: a
// skip link to the main content, focus on the new page's heading after a navigation, and the arrow keys
// through a list's rows (Enter opens). Desk and phone, zh-CN and English; records seeded through the API.
const RUN = Date.now().toString(36);
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const LANGUAGES = [
  { locale: 'zh-CN', app: appZh, ra: raZh, errors: errorsZh },
  { locale: 'en', app: appEn, ra: raEn, errors: errorsEn },
] as const;

let browser: Browser;
const contexts: BrowserContext[] = [];
let adminToken = '';
let viewerToken = '';
const records: { path: string; name: string }[] = [];

async function api<T>(method: string, path: string, body?: unknown, token = adminToken): Promise<T> {
  const res = await apiFetch(baseURL(), method, path, { token, body });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

/** A page signed in with `token` in `locale` (stored before the app loads), at the given size. */
async function pageAs(token: string, viewport: typeof DESK, locale: string): Promise<Page> {
  const context = await newContext(browser, { viewport, isMobile: viewport.width < 600 });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: baseURL() }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  adminToken = await apiSignIn(baseURL(), username, password);
  browser = await launchBrowser();
  const department = await api<{ id: string }>('POST', 'v1/user/departments', {
    name: `只读部${RUN}`,
    parent_id: '0',
  });
  // A role that may open staff, roles and dictionaries, and change none of them.
  const viewer = await api<{ id: string }>('POST', 'v1/user/roles', {
    name: `只读${RUN}`,
    state: true,
    permissions: {
      menu_ids: [
        'system.users',
        'system.users.staff',
        'system.users.roles',
        'system.settings',
        'system.settings.dictionaries',
      ],
    },
  });
  for (const n of [1, 2, 3]) {
    await api('POST', 'v1/user/staff', { name: `员工${n}-${RUN}`, department_id: department.id });
  }
  const staff = await api<{ id: string }>('POST', 'v1/user/staff', {
    name: `同事${RUN}`,
    department_id: department.id,
    role_ids: [viewer.id],
  });
  const dictionary = await api<{ id: string }>('POST', 'v1/dictionary/types', {
    name: `颜色${RUN}`,
    slug: `colour_${RUN}`,
  });
  records.push(
    { path: `/settings/staff/${staff.id}`, name: `同事${RUN}` },
    { path: `/settings/roles/${viewer.id}`, name: `只读${RUN}` },
    { path: `/settings/dictionaries/${dictionary.id}`, name: `颜色${RUN}` },
  );
  // The viewer: an account that joins a staff record holding the read-only role.
  const account = `viewer${RUN}`;
  const accountPassword = 'Viewer-only-pass-2026';
  await api('POST', 'v1/user/users', { username: account, password: accountPassword, name: '只读者' });
  const member = await api<{ invitation_url: string }>('POST', 'v1/user/staff', {
    name: `只读者${RUN}`,
    department_id: department.id,
    role_ids: [viewer.id],
  });
  viewerToken = await apiSignIn(baseURL(), account, accountPassword);
  const invitation = new URL(member.invitation_url).searchParams.get('invitation');
  await api('POST', 'v1/user/join', { invitation }, viewerToken);
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe.each([
  ['desk', DESK],
  ['phone', PHONE],
] as const)('at %s size', (_size, viewport) => {
  describe.each(LANGUAGES)('in $locale', ({ locale, app, ra, errors }) => {
    test('a caller who may only read gets the show view of every record', async () => {
      const page = await pageAs(viewerToken, viewport, locale);
      for (const { path, name } of records) {
        await page.goto(path);
        const main = page.getByRole('main');
        await main.getByRole('heading', { name, level: 1 }).waitFor();
        // The record's values are shown as text, not in inputs.
        await main.getByText(name, { exact: true }).last().waitFor();
        for (const role of ['textbox', 'combobox', 'checkbox', 'switch'] as const) {
          expect(await main.getByRole(role).count(), `${path}: ${role}`).toBe(0);
        }
        for (const label of [ra.action.save, ra.action.edit, ra.action.delete]) {
          expect(await main.getByRole('button', { name: label }).count(), `${path}: ${label}`).toBe(0);
          expect(await main.getByRole('link', { name: label }).count(), `${path}: ${label}`).toBe(0);
        }
        expect(await main.getByText(errors.forbidden).count(), path).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
          viewport.width,
        );
      }
    });

    test('the skip link is the first Tab stop and lands on the main content', async () => {
      const page = await pageAs(adminToken, viewport, locale);
      for (const path of ['/settings/staff', '/dashboard']) {
        await page.goto(path);
        await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: app.shell.skip_to_content });
        await expect
          .poll(() => skip.evaluate((el) => el === document.activeElement), { message: path })
          .toBe(true);
        // Shown while focused: inside the viewport.
        const box = await skip.boundingBox();
        expect(box && box.y >= 0, path).toBe(true);
        await page.keyboard.press('Enter');
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.closest('main') !== null), {
            message: path,
          })
          .toBe(true);
        expect(new URL(page.url()).pathname).toBe(path);
      }
    });

    test("after opening a record, focus is on the new page's heading", async () => {
      const page = await pageAs(adminToken, viewport, locale);
      await page.goto('/settings/staff');
      const main = page.getByRole('main');
      await main.getByText(`员工1-${RUN}`).first().waitFor();
      if (viewport === DESK) {
        // The arrow keys walk the rows from the header down; Enter opens the focused row.
        await main.getByRole('columnheader').first().locator('button, input').first().focus();
        const focusedRowText = () =>
          page.evaluate(() => document.activeElement?.closest('tbody tr')?.textContent ?? null);
        await page.keyboard.press('ArrowDown');
        const first = await focusedRowText();
        expect(first).not.toBeNull();
        await page.keyboard.press('ArrowDown');
        const second = await focusedRowText();
        expect(second).not.toBeNull();
        expect(second).not.toBe(first);
        await page.keyboard.press('ArrowUp');
        expect(await focusedRowText()).toBe(first);
        await page.keyboard.press('Enter');
      } else {
        await main
          .getByRole('link', { name: `员工1-${RUN}` })
          .first()
          .click();
      }
      await page.waitForURL((url) => /^\/settings\/staff\/\d+$/.test(url.pathname));
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              const el = document.activeElement;
              return el?.tagName === 'H1' ? (el.textContent ?? '') : `not a heading: ${el?.tagName}`;
            }),
          // A lazy screen's chunk on a busy machine.
          { timeout: 10_000 },
        )
        .not.toMatch(/^not a heading|^$/);
    });
  });
});
