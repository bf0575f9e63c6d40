import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import { adminCredentials, baseURL, launchBrowser, newContext, signIn } from './helpers/browser.ts';
import { apiData, apiSignIn } from './helpers/api.ts';

// Issue 36 (the trash, holders) in the browser, zh-CN: a dictionary deleted from its list is found in the
// list's trash, restored, deleted again and purged; a role staff hold answers the holders' 409 and its
// delete offers "remove from N staff and delete", which detaches and deletes it. Records are seeded and
// checked through the API.
const RUN = Date.now().toString(36);
const POLL = { timeout: 15_000 };
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

let browser: Browser;
let token: string;

function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  return apiData(baseURL(), method, path, { token, body });
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  token = await apiSignIn(baseURL(), username, password);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

for (const [size, viewport] of [
  ['desk', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  describe(`the trash at ${size} size`, () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await newContext(browser, { viewport });
      page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signIn(page, adminCredentials());
    });

    afterAll(async () => {
      await context?.close();
    });

    /** The dictionaries list showing only `name`. */
    const openList = (name: string) =>
      page.goto(`/settings/dictionaries?filter=${encodeURIComponent(JSON.stringify({ q: name }))}`);

    async function deleteFromList(name: string) {
      await openList(name);
      await page.getByText(name, { exact: true }).first().waitFor();
      await page.getByRole('button', { name: ra.action.delete, exact: true }).first().click();
      await page.getByRole('dialog').getByRole('button', { name: ra.action.confirm }).click();
      await page.getByText(t(engine.trash.moved, { name })).first().waitFor();
    }

    test('delete, find it in the trash, restore it, delete again and purge it', async () => {
      const name = `回收测试 ${size} ${RUN}`;
      const created = await api('POST', 'v1/dictionary/types', {
        name,
        slug: `trash_${size}_${RUN}`,
        data: [],
      });
      expect(created.status).toBe(201);
      const id = (created.data as { id: string }).id;

      await deleteFromList(name);
      expect((await api('GET', `v1/dictionary/types/${id}`)).status).toBe(404);
      await page.getByRole('link', { name: engine.trash.open }).click();
      await page.waitForURL('**/settings/dictionaries/trash');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText(), POLL)
        .toBe(engine.trash.title);
      await page.getByRole('button', { name: t(engine.trash.restore_named, { name }) }).click();
      await page.getByText(t(engine.trash.restored, { name })).first().waitFor();
      await expect.poll(async () => (await api('GET', `v1/dictionary/types/${id}`)).status, POLL).toBe(200);
      // Nothing of the page is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      await deleteFromList(name);
      await page.getByRole('link', { name: engine.trash.open }).click();
      await page.getByRole('button', { name: t(engine.trash.purge_named, { name }) }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(t(engine.trash.purge_confirm, { name })).waitFor();
      await dialog.getByRole('button', { name: engine.trash.purge }).click();
      await page.getByText(t(engine.trash.purged, { name })).first().waitFor();
      const trash = await api('GET', `v1/dictionary/types/trash?search=${encodeURIComponent(`id:${id}`)}`);
      expect(trash.status).toBe(200);
      expect((trash.data as { data: { id: string }[] }).data.map((r) => r.id)).not.toContain(id);
      expect((await api('POST', `v1/dictionary/types/trash/${id}/restore`)).status).toBe(404);
    });

    test('a role staff hold: its delete offers to remove it from them, and does', async () => {
      const roleName = `被持有角色 ${size} ${RUN}`;
      const role = await api('POST', 'v1/user/roles', { name: roleName, permissions: { menu_ids: [] } });
      expect(role.status).toBe(201);
      const roleId = (role.data as { id: string }).id;
      const staffIds: string[] = [];
      for (const who of ['甲', '乙']) {
        const made = await api('POST', 'v1/user/staff', {
          name: `${who} ${size} ${RUN}`,
          role_ids: [roleId],
        });
        expect(made.status).toBe(201);
        staffIds.push((made.data as { id: string }).id);
      }

      await page.goto(`/settings/roles/${roleId}`);
      await page.getByRole('button', { name: ra.action.delete, exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: ra.action.confirm }).click();
      const holders = page.getByRole('dialog', { name: t(engine.trash.holders_title, { name: roleName }) });
      await holders.getByText(t(engine.trash.holders_content, { name: roleName, count: 2 })).waitFor();
      await holders.getByRole('button', { name: t(engine.trash.detach, { count: 2 }) }).click();
      await page
        .getByText(t(engine.trash.moved, { name: roleName }))
        .first()
        .waitFor();
      await page.waitForURL('**/settings/roles');
      expect((await api('GET', `v1/user/roles/${roleId}`)).status).toBe(404);
      for (const id of staffIds)
        expect(((await api('GET', `v1/user/staff/${id}`)).data as { role_ids: string[] }).role_ids).toEqual(
          [],
        );
    });
  });
}
