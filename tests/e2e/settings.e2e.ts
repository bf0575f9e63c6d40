import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import app from '../../locales/zh-CN/app.json';
import content from '../../locales/zh-CN/resources-content.json';
import settings from '../../locales/zh-CN/settings.json';
import validation from '../../locales/zh-CN/validation.json';
import { apiData, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';

// Issue 5, settings content, in the browser: the general settings page saves a group and the title follows
// without a reload; a dictionary is created with inline entries (the empty-entry message first); the
// activity log lists those writes. Texts come from the zh-CN catalogues.
let browser: Browser;
let context: BrowserContext;
let page: Page;
const label = (text: string) => new RegExp(`^${text}( \\*)?$`);

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, adminCredentials());
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function saveSiteName(name: string): Promise<void> {
  await page.getByRole('tab', { name: settings.general.tabs.site }).click();
  const input = page.getByRole('textbox', { name: label(settings.general.fields.site_name) });
  await input.fill(name);
  await page.getByRole('button', { name: '保存' }).click();
  await page.getByText(settings.general.saved).first().waitFor();
}

describe('settings content', () => {
  test('general settings: saving the site name changes the title at once', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: settings.general.tabs.basic }).waitFor();
    await expect.poll(() => page.title()).toMatch(new RegExp(`^${app.menu.general} - `));
    const before = (await page.title()).slice(`${app.menu.general} - `.length);
    await saveSiteName('E2E 控制台');
    await expect.poll(() => page.title()).toBe(`${app.menu.general} - E2E 控制台`);
    await page.getByText(settings.general.saved).first().waitFor({ state: 'hidden' });
    await saveSiteName(before || 'Admin');
  });

  test('a dictionary with inline entries; an empty label is refused first', async () => {
    await page.goto('/settings/dictionaries/create');
    await page.getByRole('textbox', { name: label(content.dictionaries.fields.name) }).fill('优先级');
    await page.getByRole('textbox', { name: label(content.dictionaries.fields.slug) }).fill('e2e_priority');
    await page.getByRole('button', { name: '添加' }).click();
    await page.getByRole('textbox', { name: content.dictionaries.fields.data_value }).fill('high');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText(validation.dictionary_data).first().waitFor();
    await page.getByRole('textbox', { name: content.dictionaries.fields.data_label }).fill('高');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/dictionaries');
    await page.getByRole('cell', { name: 'e2e_priority' }).waitFor();
  });

  test('the activity log lists those writes with their changes', async () => {
    await page.goto('/settings/activities');
    // Issue 13 item 1: actions and changes read in words (field labels), not raw keys.
    const table = page.getByRole('table');
    await table.getByText('新建字典').first().waitFor();
    await table
      .getByText(/标识: (— → )?e2e_priority/)
      .first()
      .waitFor();
    await table.getByText('修改设置').first().waitFor();
    // The operator filter offers the people found in the log (GET v1/user/logs/operators).
    const { username } = adminCredentials();
    await page.getByRole('combobox', { name: '操作人' }).fill(username.slice(0, 3));
    await page.getByRole('option', { name: new RegExp(`\\(${username}\\)$|^${username}$`) }).click();
    await page.waitForURL((url) => decodeURIComponent(url.search).includes('operator_id'));
    await table.getByText('新建字典').first().waitFor();
  });
});

describe('general settings on a phone', () => {
  test('the tabs scroll with visible arrows, and the last tab can be reached', async () => {
    const phone = await newContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      const mobile = await phone.newPage();
      mobile.setDefaultTimeout(15_000);
      await signIn(mobile, adminCredentials());
      await mobile.goto('/settings');
      const tabs = mobile.getByRole('tablist');
      await tabs.getByRole('tab', { name: settings.general.tabs.basic }).waitFor();
      const names = await tabs.getByRole('tab').allTextContents();
      const last = tabs.getByRole('tab', { name: names.at(-1)! });
      // Off-screen at first: the tab strip is wider than the phone.
      const box = await last.boundingBox();
      expect(box!.x).toBeGreaterThan(390);
      const arrows = mobile.locator('.MuiTabs-scrollButtons');
      expect(await arrows.count()).toBe(2);
      const forward = arrows.last();
      await forward.waitFor({ state: 'visible' });
      // Each click scrolls by a page with an animation: click, let it settle, look again.
      await expect
        .poll(
          async () => {
            const x = (await last.boundingBox())!.x;
            if (x + 10 > 390) await forward.click();
            return x;
          },
          { timeout: 15_000, interval: 500 },
        )
        .toBeLessThan(390);
    } finally {
      await phone.close();
    }
  });
});

// Issue 27, item 1: where codes and mail go is for administrators (or holders of system.settings.delivery).
// A staff member who may update the general settings sees those keys read-only, with the reason, and still
// saves the rest of the group.
describe('general settings for a writer who is not an administrator', () => {
  const WRITER = { username: `writer${Date.now()}`, password: 'Writer-pass-2026-e2e' };
  let admin: string;

  beforeAll(async () => {
    const { username, password } = adminCredentials();
    admin = await apiSignIn(baseURL(), username, password);
    const call = async (method: string, path: string, body: unknown, status: number) => {
      const res = await apiData(baseURL(), method, path, { token: admin, body });
      expect(res.status, JSON.stringify(res.data)).toBe(status);
      return res.data as Record<string, unknown>;
    };
    await call('POST', 'v1/settings/message', { mail_from: 'desk@example.com', templates: {} }, 200);
    const role = await call(
      'POST',
      'v1/user/roles',
      {
        name: `Settings writer ${Date.now()}`,
        permissions: {
          menu_ids: ['system.settings', 'system.settings.general', 'system.settings.general.update'],
        },
      },
      201,
    );
    await call('POST', 'v1/user/users', { ...WRITER, name: 'Writer' }, 201);
    const staff = await call('POST', 'v1/user/staff', { name: 'Writer', role_ids: [role.id] }, 201);
    const writer = await apiSignIn(baseURL(), WRITER.username, WRITER.password);
    const invitation = new URL(String(staff.invitation_url)).searchParams.get('invitation');
    const joined = await apiData(baseURL(), 'POST', 'v1/user/join', { token: writer, body: { invitation } });
    expect(joined.status, JSON.stringify(joined.data)).toBe(200);
  });

  test('the delivery fields are read-only with the reason; the templates still save', async () => {
    const writerContext = await newContext(browser);
    try {
      const writerPage = await writerContext.newPage();
      writerPage.setDefaultTimeout(15_000);
      await signIn(writerPage, WRITER);
      await writerPage.goto('/settings');
      await writerPage.getByRole('tab', { name: settings.general.tabs.message }).click();
      await writerPage.getByText(settings.general.delivery_locked).waitFor();
      const from = writerPage.getByRole('textbox', { name: label(settings.general.fields.mail_from) });
      expect(await from.inputValue()).toBe('desk@example.com');
      expect(await from.isDisabled()).toBe(true);
      expect(await writerPage.getByLabel(label(settings.general.fields.smtp_url)).isDisabled()).toBe(true);
      // The templates are one subject and body per mail and language: the English code mail's subject.
      const legend = `${settings.mail_templates.templates.code} · ${settings.general.options.en}`;
      const subject = writerPage
        .getByRole('group', { name: legend })
        .getByRole('textbox', { name: settings.mail_templates.subject });
      expect(await subject.isDisabled()).toBe(false);
      await subject.fill('E2E code');
      await writerPage.getByRole('button', { name: '保存' }).click();
      await writerPage.getByText(settings.general.saved).first().waitFor();

      await writerPage.getByRole('tab', { name: settings.general.tabs.sms }).click();
      await writerPage.getByText(settings.general.delivery_locked).waitFor();
      for (const key of ['endpoint', 'access_key_id'] as const)
        expect(
          await writerPage.getByRole('textbox', { name: label(settings.general.fields[key]) }).isDisabled(),
        ).toBe(true);
      expect(
        await writerPage
          .getByRole('textbox', { name: label(settings.general.fields.sign_name) })
          .isDisabled(),
      ).toBe(false);
    } finally {
      await writerContext.close();
    }
    const stored = await apiData(baseURL(), 'GET', 'v1/settings/message', { token: admin });
    expect(stored.data).toMatchObject({
      mail_from: 'desk@example.com',
      templates: { en: { code_subject: 'E2E code' } },
    });
  });
});
