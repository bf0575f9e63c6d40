import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import people from '../../locales/zh-CN/resources-people.json';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';
import { apiData, apiSignIn } from './helpers/api.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 32 item 5 in the browser: the staff list offers its department's related field (`department.name`,
// staff.ts sortBy/searchBy) as the department column's sort and as a filter, at desk and phone size, axe
// clean. Seeded through the API; texts from the zh-CN catalogues (the app's default language).
const RUN = Date.now().toString(36);
const DEPARTMENTS = [`Rel-c ${RUN}`, `Rel-A ${RUN}`, `Rel-b ${RUN}`];
/** Staff name -> its department (index in DEPARTMENTS). By department name: A (2), b (3), c (1). */
const STAFF: [string, number][] = [
  [`RelE2E1 ${RUN}`, 0],
  [`RelE2E2 ${RUN}`, 1],
  [`RelE2E3 ${RUN}`, 2],
];
const BY_DEPARTMENT = [STAFF[1]![0], STAFF[2]![0], STAFF[0]![0]];
const POLL = { timeout: 15_000 };
const t = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
const FILTER_LABEL = t(engine.related.field, {
  relation: people.staff.fields.department_id,
  field: people.departments.fields.name,
});
/** The staff list holding only this run's staff (the `q` box). */
const LIST = `/settings/staff?filter=${encodeURIComponent(JSON.stringify({ q: `RelE2E` }))}&perPage=50`;

let browser: Browser;
let token: string;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const { status, data } = await apiData(baseURL(), method, path, { token, body });
  expect(status).toBeLessThan(300);
  return data as T;
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  token = await apiSignIn(baseURL(), username, password);
  const ids: string[] = [];
  for (const name of DEPARTMENTS)
    ids.push((await api<{ id: string }>('POST', 'v1/user/departments', { name })).id);
  for (const [name, d] of STAFF) await api('POST', 'v1/user/staff', { name, department_id: ids[d] });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** Filters by the department's name through the "add filter" menu. */
async function filterByDepartmentName(page: Page, value: string) {
  await page.getByRole('button', { name: ra.action.add_filter }).click();
  await page.getByRole('menuitemcheckbox', { name: FILTER_LABEL }).click();
  await page.getByRole('textbox', { name: FILTER_LABEL }).fill(value);
}

describe.each([
  ['desk', { viewport: { width: 1440, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true }],
] as const)('related fields on the staff list (%s)', (variant, options) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, options);
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, adminCredentials());
  });

  afterAll(async () => {
    await context?.close();
  });

  /** This run's staff names as the list shows them, in its order. */
  const shownNames = async () =>
    (
      await (
        variant === 'desk' ? page.locator('table tbody tr td') : page.getByRole('heading', { level: 2 })
      ).allTextContents()
    )
      .map((s) => s.trim())
      .filter((s) => s.startsWith('RelE2E'));

  test('sorts by the department name', async () => {
    if (variant === 'desk') {
      await page.goto(LIST);
      await expect.poll(shownNames, POLL).toHaveLength(3);
      await page
        .getByRole('columnheader', { name: people.staff.fields.department_id })
        .getByRole('button')
        .click();
      await page.waitForURL((url) => url.searchParams.get('sort') === 'department.name');
    } else {
      // The cards have no headers: the list's sort comes from its address as a saved link would give it.
      await page.goto(`${LIST}&sort=department.name&order=ASC`);
    }
    const isDescending = variant === 'desk' && new URL(page.url()).searchParams.get('order') === 'DESC';
    await expect.poll(shownNames, POLL).toEqual(isDescending ? [...BY_DEPARTMENT].reverse() : BY_DEPARTMENT);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('filters by the department name', async () => {
    await page.goto(LIST);
    await expect.poll(shownNames, POLL).toHaveLength(3);
    await filterByDepartmentName(page, `Rel-b ${RUN}`);
    await expect.poll(shownNames, POLL).toEqual([STAFF[2]![0]]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
