import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import raEn from '../../locales/en/ra.json';
import raZh from '../../locales/zh-CN/ra.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';

// Issue 34, item 5: the "N selected" bar of a list must not cover its filters. With rows selected, every
// filter input is still seen, takes the pointer and is typed into. On /settings/dictionaries (a generated
// list), seeded through the API, at desk and phone size, in zh-CN and English.
const RUN = Date.now().toString(36);
const SIZES = [
  { name: 'desk', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;
const LANGUAGES = [
  { locale: 'zh-CN', ra: raZh },
  { locale: 'en', ra: raEn },
] as const;
const POLL = { timeout: 15_000 };

let browser: Browser;
let token = '';
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const { username, password } = adminCredentials();
  token = await apiSignIn(baseURL(), username, password);
  for (const n of [1, 2, 3]) {
    const res = await apiFetch(baseURL(), 'POST', 'v1/dictionary/types', {
      token,
      body: { name: `批量${RUN}-${n}`, slug: `bulkbar_${RUN}_${n}`, data: [] },
    });
    expect(res.status, await res.text()).toBe(201);
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function pageAt(viewport: { width: number; height: number }, locale: string): Promise<Page> {
  const context = await newContext(browser, { viewport, isMobile: viewport.width < 600 });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: baseURL() }]);
  await context.addInitScript((value: string) => localStorage.setItem('locale', value), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/** True when the two boxes share any area. */
function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
type Box = { x: number; y: number; width: number; height: number };

/** What the pointer reaches at the centre of `input`: 'input' when nothing lies over it, else what does. */
async function takesPointer(input: Locator): Promise<string> {
  return input.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    if (hit && (hit === el || el.contains(hit) || hit.contains(el) || hit.closest('label') !== null))
      return 'input';
    return hit ? `${hit.tagName}.${String(hit.className)}` : 'nothing';
  });
}

describe.each(SIZES)('the bulk bar at $name size', ({ viewport }) => {
  test.each(LANGUAGES)(
    'leaves the filters seen and usable with rows selected ($locale)',
    async ({ locale, ra }) => {
      const page = await pageAt(viewport, locale);
      const filter = encodeURIComponent(JSON.stringify({ q: `批量${RUN}` }));
      await page.goto(`/settings/dictionaries?filter=${filter}&sort=name&order=ASC`);
      await page.getByText(`批量${RUN}-1`).first().waitFor();
      const inputs = page.locator('.RaFilterForm-filterFormInput').getByRole('textbox');
      await expect.poll(() => inputs.count(), POLL).toBeGreaterThan(0);

      // Select two records: the bar appears with its count.
      // A table row's box is "Select this row"; a phone card's names its record.
      const boxes =
        viewport.width < 600
          ? page.getByRole('checkbox', { name: new RegExp(`批量${RUN}-[12]`) })
          : page.getByRole('checkbox', { name: ra.action.select_row });
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      const bar = page.getByText(ra.action.bulk_actions_other.replace('{{smart_count}}', '2'));
      await bar.waitFor();
      for (const input of await inputs.all()) {
        await expect.poll(() => input.isVisible(), POLL).toBe(true);
        // Checking a card may have scrolled the phone's page: bring the filter back, then measure both. From
        // the top of the page: scrolling just far enough can leave the filter under the fixed app bar.
        await page.evaluate(() => window.scrollTo(0, 0));
        await input.scrollIntoViewIfNeeded();
        const barBox = await page.locator('.RaBulkActionsToolbar-toolbar').boundingBox();
        expect(barBox).not.toBeNull();
        const box = await input.boundingBox();
        expect(box).not.toBeNull();
        expect(
          overlaps(box!, barBox!),
          `filter at ${JSON.stringify(box)} under the bar ${JSON.stringify(barBox)}`,
        ).toBe(false);
        // The bar opens with a transition: wait for the layout to settle rather than read it once.
        await expect.poll(() => takesPointer(input), POLL).toBe('input');
      }
      // The first filter takes a click and typing while the selection stays.
      const first = inputs.first();
      await first.click();
      await expect.poll(() => first.evaluate((el) => el === document.activeElement), POLL).toBe(true);
      await first.fill(`批量${RUN}-2`);
      await expect.poll(() => first.inputValue(), POLL).toBe(`批量${RUN}-2`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
    },
  );
});
