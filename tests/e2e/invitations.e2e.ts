import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import authEn from '../../locales/en/auth.json';
import settingsEn from '../../locales/en/settings.json';
import authZh from '../../locales/zh-CN/auth.json';
import settingsZh from '../../locales/zh-CN/settings.json';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { launchBrowser, newContext } from './helpers/browser.ts';
import { E2E_ADMIN, startServer, type E2eServer } from './helpers/server.ts';

// Issue 34, item 8 in the browser: the staff page sends the invitation link by mail, shows where it went and
// when the link expires, and offers a resend; the mail read from a loopback SMTP sink opens the registration
// page, whose sign-in link lets an existing account join the staff record. Desk and phone, zh-CN and English.
// Its own server, with SMTP_URL pointing at the sink started here.
const RUN = Date.now().toString(36);
const SIZES = {
  desk: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const LANGUAGES = [
  { locale: 'zh-CN', settings: settingsZh, auth: authZh },
  { locale: 'en', settings: settingsEn, auth: authEn },
] as const;
const MAIL_TIMEOUT = 30_000;

let smtp: TestSmtp;
let server: E2eServer;
let browser: Browser;
let adminToken = '';
const contexts: BrowserContext[] = [];

async function api<T>(method: string, path: string, body?: unknown, token = adminToken): Promise<T> {
  const res = await apiFetch(server.baseURL, method, path, { token, body });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

async function pageAt(
  viewport: { width: number; height: number },
  locale: string,
  token?: string,
): Promise<Page> {
  const context = await newContext(browser, {
    baseURL: server.baseURL,
    viewport,
    isMobile: viewport.width < 600,
  });
  contexts.push(context);
  if (token) await context.addCookies([{ name: 'access_token', value: token, url: server.baseURL }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return page;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A catalogue text with its `{{placeholders}}` matching anything. */
const pattern = (text: string) => new RegExp(escape(text).replace(/\\\{\\\{\w+\\\}\\\}/g, '.+'));

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ extraEnv: { SMTP_URL: smtp.url } });
  browser = await launchBrowser();
  adminToken = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

describe('invitations by mail', () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const { locale, settings, auth } of LANGUAGES) {
      test(`${size}, ${locale}: send, resend, and join through the mailed link`, async () => {
        const tag = `${size}${locale.replace('-', '')}${RUN}`.toLowerCase();
        const email = `inv-${tag}@example.test`;
        const member = await api<{ id: string }>('POST', 'v1/user/staff', { name: `Invitee ${tag}`, email });

        const page = await pageAt(viewport, locale, adminToken);
        await page.goto(`/settings/staff/${member.id}`);
        const panel = page.getByRole('region', { name: settings.people.staff.invitation });
        // The link issued with the record: its expiry is shown before anything is sent.
        await panel.getByText(pattern(settings.invite.expires)).waitFor();

        await panel.getByRole('button', { name: settings.invite.send_email }).click();
        const status = panel.getByRole('status');
        await expect.poll(() => status.textContent()).toMatch(pattern(settings.invite.sent));
        expect(await status.textContent()).toContain(`i***@example.test`);
        const first = await smtp.nextMail(email, MAIL_TIMEOUT);

        // Resend: a new mail with a new link; the first link stops working.
        await panel.getByRole('button', { name: settings.invite.resend_email }).click();
        const second = await smtp.nextMail(email, MAIL_TIMEOUT);
        const link = /https?:\/\/\S+/.exec(second.text)?.[0] ?? '';
        expect(link).toMatch(/\/register\?invitation=/);
        expect(link).not.toBe(/https?:\/\/\S+/.exec(first.text)?.[0]);
        // The mail can arrive before the page has the answer: wait for the page to show the new link.
        await expect.poll(() => panel.getByTestId('invitation-url').inputValue()).toBe(link);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );

        // The invitee: an existing account opens the mailed link and signs in from there.
        const username = `joiner${tag}`;
        const password = 'Joiner-pass-2026-ok';
        await api('POST', 'v1/user/users', { username, password, name: `Joiner ${tag}` });
        const invitee = await pageAt(viewport, locale);
        await invitee.goto(link);
        await invitee.getByRole('link', { name: auth.register.to_login }).click();
        await invitee.getByRole('heading', { name: auth.login.title }).waitFor();
        await invitee.getByRole('textbox', { name: auth.fields.account }).fill(username);
        await invitee.getByLabel(new RegExp(`^${escape(auth.fields.password)}\\s*\\*?$`)).fill(password);
        await invitee.getByRole('button', { name: auth.login.submit, exact: true }).click();
        await expect
          .poll(
            async () => (await api<{ registered: boolean }>('GET', `v1/user/staff/${member.id}`)).registered,
            {
              timeout: 30_000,
            },
          )
          .toBe(true);
      }, 120_000);
    }
  }
});
