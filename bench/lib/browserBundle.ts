import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import auth from '../../locales/zh-CN/auth.json';
import { CHROMIUM_ARGS, findChromium } from '../../tests/e2e/helpers/browser.ts';
import { E2E_ADMIN, startServer } from '../../tests/e2e/helpers/server.ts';

/** The JS files (dist paths, `assets/x-abc.js`) a real browser fetched on each page of the path. */
export interface BrowserPath {
  signIn: string[];
  firstList: string[];
}

/**
 * `bench:bundle --browser`: what Chromium downloads, as a user does it. The real server (`server/main.ts`, a
 * fresh PGlite directory, the built dist/) and a new browser context with nothing cached: the sign-in page
 * (`/login?href=<listPath>`, its JS counted once the form shows and the network is idle), then signing in
 * through the form opens the list (counted once its first row shows and the network is idle again, so the lazy
 * chunks the page loads on its own count too).
 */
export async function measureInBrowser({
  listPath = '/settings/staff',
  log,
}: {
  listPath?: string;
  log: (line: string) => void;
}): Promise<BrowserPath> {
  const server = await startServer({ log });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' });
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) fetched.push(pathname.slice(1));
    });
    // The sign-in page with the list as where to go next (as the guard sends a signed-out visit there, but
    // without the admin chunks such a visit starts fetching at once).
    await page.goto(`/login?href=${encodeURIComponent(listPath)}`);
    await page.getByRole('button', { name: auth.login.submit, exact: true }).waitFor();
    await networkIdle(page, log);
    const signIn = [...new Set(fetched)];
    await page.getByRole('textbox', { name: auth.fields.account }).fill(E2E_ADMIN.username);
    await page.getByLabel(auth.fields.password, { exact: false }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
    await page.waitForURL((url) => url.pathname === listPath);
    // The administrator's own staff record: the list's first row.
    await page.locator('tbody tr').first().waitFor({ timeout: 60_000 });
    await networkIdle(page, log);
    return { signIn, firstList: [...new Set(fetched)] };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * Playwright's "no request for 500 ms". The list's live stream (one long request) may keep the network busy:
 * then what was fetched by the deadline counts, and the run says so.
 */
async function networkIdle(page: Page, log: (line: string) => void): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => {
    log('the network was not idle within 20 s (a live stream?): counted what was fetched by then');
  });
}
