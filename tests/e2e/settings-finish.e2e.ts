import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import engineZh from '../../locales/zh-CN/engine.json';
import raEn from '../../locales/en/ra.json';
import raZh from '../../locales/zh-CN/ra.json';
import resourcesEn from '../../locales/en/resources.json';
import resourcesZh from '../../locales/zh-CN/resources.json';
import settingsEn from '../../locales/en/settings.json';
import settingsZh from '../../locales/zh-CN/settings.json';
import { SAMPLE_VALUES } from '../../schemas/mailTemplates.ts';
import { apiData, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 34 item 6 and 7 in the browser. Mail templates (settings > Message): at desk and phone size, in both
// languages, one language's verification code mail gets a subject and a body, Preview shows the server's
// rendering with the sample values filled in, Save keeps it across a reload, and an unknown placeholder shows
// its field message; axe finds nothing serious with the preview open. One time format: a user's last sign-in
// as the users list shows it is the cell of the CSV exported from that list, in zh-CN and in English (the
// site's zone set to the browser's for the check, then restored). One sign-in for the file: the API's token
// as every context's session cookie.
const RUN = Date.now().toString(36);
const SIZES = {
  desk: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const LANGUAGES = [
  { locale: 'zh-CN', settings: settingsZh, ra: raZh, engine: engineZh, resources: resourcesZh },
  { locale: 'en', settings: settingsEn, ra: raEn, engine: engineEn, resources: resourcesEn },
] as const;
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

let browser: Browser;
let token = '';
const contexts: BrowserContext[] = [];

async function pageAt(viewport: { width: number; height: number }, locale: string): Promise<Page> {
  const context = await newContext(browser, { viewport, isMobile: viewport.width < 600 });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: baseURL() }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function api<T>(method: string, path: string, body?: unknown, as = token): Promise<T> {
  const { status, data } = await apiData(baseURL(), method, path, { token: as, body });
  expect(status, `${method} ${path}: ${JSON.stringify(data)}`).toBeLessThan(300);
  return data as T;
}

beforeAll(async () => {
  const admin = adminCredentials();
  token = await apiSignIn(baseURL(), admin.username, admin.password);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** The message tab of /settings, and the verification code mail's fields of one language. */
async function codeTemplate(page: Page, language: (typeof LANGUAGES)[number], locale: string) {
  const { settings } = language;
  await page.goto('/settings');
  await page.getByRole('tab', { name: settings.general.tabs.message }).click();
  const legend = `${settings.mail_templates.templates.code} · ${settings.general.options[locale as 'en']}`;
  const group = page.getByRole('group', { name: legend });
  await group.waitFor();
  return {
    group,
    subject: group.getByRole('textbox', { name: settings.mail_templates.subject }),
    body: group.getByRole('textbox', { name: settings.mail_templates.body }),
    preview: group.getByRole('button', { name: settings.mail_templates.preview }),
  };
}

describe('mail templates', () => {
  // A POST replaces the whole group (an omitted secret keeps its value): put back what was there.
  let before: { mail_from: string; templates: unknown } | null = null;
  beforeAll(async () => {
    const { mail_from, templates } = await api<{ mail_from: string; templates: unknown }>(
      'GET',
      'v1/settings/message',
    );
    before = { mail_from, templates };
  });

  afterAll(async () => {
    if (before) await api('POST', 'v1/settings/message', before);
  });

  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const language of LANGUAGES) {
      test(`${size}, ${language.locale}: edited, previewed with the sample values, saved and kept; an unknown placeholder named`, async () => {
        const { locale, settings, ra } = language;
        // Each variant edits the mail of the other language, so the editor is not tied to the interface's.
        const target = locale === 'en' ? 'zh-CN' : 'en';
        const page = await pageAt(viewport, locale);
        const subjectText = `${RUN} ${size} {{code}}`;
        const bodyText = `${RUN} ${locale}: {{code}} / {{minutes}}`;
        let fields = await codeTemplate(page, language, target);
        await fields.subject.fill(subjectText);
        await fields.body.fill(bodyText);
        await fields.preview.click();
        const region = fields.group.getByRole('region', { name: settings.mail_templates.preview });
        await region.waitFor();
        expect(await region.innerText()).toContain(`${RUN} ${size} ${SAMPLE_VALUES.code}`);
        expect(await region.innerText()).toContain(
          `${RUN} ${locale}: ${SAMPLE_VALUES.code} / ${SAMPLE_VALUES.minutes}`,
        );
        expect(await region.innerText()).not.toContain('{{');
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await page.getByRole('button', { name: ra.action.save }).click();
        await page.getByText(settings.general.saved).first().waitFor();
        await page.reload();
        fields = await codeTemplate(page, language, target);
        await expect.poll(() => fields.subject.inputValue()).toBe(subjectText);
        expect(await fields.body.inputValue()).toBe(bodyText);
        // An unknown placeholder: the preview and the save both name it, under its field on save.
        await fields.body.fill(`${bodyText} {{url}}`);
        const message = t(settings.mail_templates.errors.placeholder, {
          name: '{{url}}',
          allowed: '{{code}} {{minutes}} {{site_name}} {{scene}}',
        });
        await fields.preview.click();
        await expect.poll(() => fields.group.getByRole('alert').innerText()).toBe(message);
        await page.getByRole('button', { name: ra.action.save }).click();
        // Now under the body as well: the alert and the field's message.
        await expect.poll(() => fields.group.getByText(message, { exact: true }).count()).toBe(2);
        const saved = await api<{ templates: Record<string, Record<string, string>> }>(
          'GET',
          'v1/settings/message',
        );
        expect(saved.templates[target]).toMatchObject({ code_subject: subjectText, code_body: bodyText });
      }, 90_000);
    }
  }
});

/** One CSV line's cells (quoted cells may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

describe('one time format', () => {
  const username = `tf${RUN}`;
  // The site group as it was (a POST replaces the whole group).
  let site: { timezone: string } | null = null;

  beforeAll(async () => {
    await api('POST', 'v1/user/users', { username, password: 'Time-format-2026-ok', name: 'TF' });
    // A sign-in gives the account its last sign-in time.
    await apiSignIn(baseURL(), username, 'Time-format-2026-ok');
    site = await api<{ timezone: string }>('GET', 'v1/settings/site');
  });

  afterAll(async () => {
    if (site) await api('POST', 'v1/settings/site', site);
  });

  for (const language of LANGUAGES) {
    test(`${language.locale}: the users list shows a time as the CSV export writes it`, async () => {
      const { locale, engine, resources } = language;
      const page = await pageAt(SIZES.desk, locale);
      // The screens render in the browser's zone and the CSV in the site's: make them one for the check.
      const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      if (browserZone !== site!.timezone)
        await api('POST', 'v1/settings/site', { ...site, timezone: browserZone });
      await page.goto(`/settings/users?filter=${encodeURIComponent(JSON.stringify({ q: username }))}`);
      const row = page.getByRole('row').filter({ hasText: username });
      const pattern =
        locale === 'en' ? /\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}/ : /\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/;
      await expect.poll(async () => pattern.test(await row.innerText().catch(() => ''))).toBe(true);
      const shown = pattern.exec((await row.innerText()).replace(/\s+/g, ' '))![0];
      await page.getByRole('button', { name: engine.action.export }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: engine.xlsx.export_csv }).click(),
      ]);
      const [header, ...rows] = fs
        .readFileSync(await download.path(), 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      const column = csvCells(header!).indexOf(resources.users.fields.last_login_at);
      expect(column, header).toBeGreaterThanOrEqual(0);
      const line = rows.find((r) => csvCells(r).includes(username));
      expect(line, rows.join('\n')).toBeDefined();
      expect(csvCells(line!)[column]).toBe(shown);
    }, 60_000);
  }
});
