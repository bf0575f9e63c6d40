import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engineEn from '../../locales/en/engine.json';
import engineZh from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';
import { apiData, apiSignIn } from './helpers/api.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 36 item 5 in the browser, on the dictionaries (a product resource with a trash): the bulk delete's
// toast offers Undo and the records come back in the list; the activity log offers Undo on a bulk call's rows,
// asks first and says what was put back, at desk size in zh-CN and at phone size in English. axe on the toast
// and on the confirm. Records are seeded and checked through the API.
const RUN = Date.now().toString(36);
const POLL = { timeout: 15_000 };
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

let browser: Browser;
let token: string;

function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  return apiData(baseURL(), method, path, { token, body });
}

async function dictionary(name: string): Promise<string> {
  const created = await api('POST', 'v1/dictionary/types', {
    name,
    slug: `u_${RUN}_${(serial += 1)}`,
    data: [],
  });
  expect(created.status).toBe(201);
  return (created.data as { id: string }).id;
}
let serial = 0;

beforeAll(async () => {
  const { username, password } = adminCredentials();
  token = await apiSignIn(baseURL(), username, password);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

for (const [size, viewport, english] of [
  ['desk', { width: 1440, height: 900 }, false],
  ['phone', { width: 390, height: 844 }, true],
] as const) {
  const engine = english ? engineEn : engineZh;
  describe(`undo at ${size} size, ${english ? 'en' : 'zh-CN'}`, () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await newContext(browser, { viewport });
      page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signIn(page, adminCredentials());
      if (english) await context.addInitScript(() => localStorage.setItem('locale', 'en'));
    });

    afterAll(async () => {
      await context?.close();
    });

    if (!english)
      test('the bulk delete toast undoes the delete: the records are back in the list', async () => {
        const names = [`撤销甲 ${RUN}`, `撤销乙 ${RUN}`];
        const ids = [await dictionary(names[0]!), await dictionary(names[1]!)];
        await page.goto(`/settings/dictionaries?filter=${encodeURIComponent(JSON.stringify({ q: RUN }))}`);
        const rows = page.locator('table tbody tr');
        for (const name of names) await rows.filter({ hasText: name }).getByRole('checkbox').check();
        await page
          .locator('[data-test="bulk-actions-toolbar"]')
          .getByRole('button', { name: ra.action.delete })
          .click();
        await page.getByRole('dialog').getByRole('button', { name: ra.action.confirm }).click();
        const toast = page.getByRole('status').filter({ hasText: t(engine.undo_ui.trashed, { count: 2 }) });
        await toast.waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await expect
          .poll(async () => (await api('GET', `v1/dictionary/types/${ids[0]}`)).status, POLL)
          .toBe(404);
        await toast.getByRole('button', { name: engine.undo_ui.undo }).click();
        await page
          .getByText(t(engine.undo_ui.done, { reverted: 2, skipped: 0 }))
          .first()
          .waitFor();
        for (const name of names) await rows.filter({ hasText: name }).first().waitFor();
        for (const id of ids) expect((await api('GET', `v1/dictionary/types/${id}`)).status).toBe(200);
      });

    test('the activity log offers Undo on a bulk call’s row, asks, and says what was put back', async () => {
      const name = `log ${size} ${RUN}`;
      const id = await dictionary(name);
      const bulk = await api('PATCH', `v1/dictionary/types?ids=${id}`, { name: `${name} changed` });
      expect(bulk.status).toBe(200);
      const logs = await api('GET', `v1/user/logs?search=${encodeURIComponent(`subject_id:${id}`)}&size=20`);
      const row = (
        logs.data as { data: { id: string; operation_id: string | null; undoable: boolean }[] }
      ).data.find((r) => r.operation_id)!;
      expect(row.undoable).toBe(true);
      const filter = { action: 'dictionaries.update' };
      await page.goto(`/settings/activities?filter=${encodeURIComponent(JSON.stringify(filter))}`);
      await page.getByRole('button', { name: t(engine.undo_log.undo_label, { id: row.id }) }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(engine.undo_log.confirm_title).waitFor();
      await dialog.getByText(engine.undo_log.confirm_content).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: engine.undo_log.undo }).click();
      await page
        .getByText(t(engine.undo_ui.done, { reverted: 1, skipped: 0 }))
        .first()
        .waitFor();
      await page
        .getByText(t(engine.undo_log.reverted, { ids: `#${id}` }))
        .first()
        .waitFor();
      const back = await api('GET', `v1/dictionary/types/${id}`);
      expect((back.data as { name: string }).name).toBe(name);
      // Undone: the row offers it no more.
      await expect
        .poll(
          () => page.getByRole('button', { name: t(engine.undo_log.undo_label, { id: row.id }) }).count(),
          POLL,
        )
        .toBe(0);
    });
  });
}
