import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { inject } from 'vitest';
import auth from '../../../locales/zh-CN/auth.json';
import './context.ts';

/** Flags that keep Debian's Chromium quiet and working on a closed network, as root, without a GPU. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium: CHROMIUM_PATH when set, else the first of chromium/chromium-browser on PATH. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // Not here.
      }
    }
  }
  throw new Error(
    'Chromium not found on PATH. Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH).',
  );
}

/** Launches headless Chromium. Example: `const browser = await launchBrowser(); ... await browser.close();` */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
}

/** The origin of the server under test (started by the global setup). */
export function baseURL(): string {
  return inject('baseURL');
}

/**
 * A fresh context (empty localStorage and cookies) pointed at the server under test. The browser itself
 * asks for English, so a Chinese page proves the app's own default rather than the browser's.
 */
export function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseURL(), locale: 'en-US', ...options });
}

/** Admin credentials of the server under test. */
export function adminCredentials(): { username: string; password: string } {
  return { username: inject('adminUsername'), password: inject('adminPassword') };
}

/** Signs in through the real sign-in page (zh-CN labels) and waits for /dashboard. */
export async function signIn(
  page: Page,
  { username, password }: { username: string; password: string },
): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: auth.fields.account }).fill(username);
  await page.getByLabel(auth.fields.password, { exact: false }).fill(password);
  await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

const LOCALE_COOKIE = 'e2e_locale';

/**
 * Opens `path` (on the server at `origin`) with `locale` stored as the interface language before any of the app's code runs, as the
 * language switcher stores it. A page's own `localStorage.setItem` followed by a navigation is not enough:
 * Chromium may load the next document in another renderer before that write reaches it (seen as the old
 * language in 2 of 30 loads). A cookie set through the browser process is there when the navigation starts;
 * an init script, added once per context, copies it into localStorage ahead of the app.
 */
export async function openInLocale(page: Page, origin: string, path: string, locale: string): Promise<void> {
  const context = page.context();
  if (!localeContexts.has(context)) {
    localeContexts.add(context);
    await context.addInitScript((name: string) => {
      const match = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie);
      if (match) localStorage.setItem('locale', decodeURIComponent(match[1]!));
    }, LOCALE_COOKIE);
  }
  await context.addCookies([{ name: LOCALE_COOKIE, value: encodeURIComponent(locale), url: origin }]);
  await page.goto(path);
}
const localeContexts = new WeakSet<BrowserContext>();
