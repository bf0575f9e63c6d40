import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import app from '../../locales/zh-CN/app.json';
import engine from '../../locales/zh-CN/engine.json';
import ra from '../../locales/zh-CN/ra.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';
import { seriousViolations } from './helpers/axe.ts';

// Saved views (issue 32, item 1) in the browser, zh-CN, at desk and phone size: the administrator saves the
// staff list's current search as a view shared with a role; a member of that role sees it in the list's
// Views menu, pins it, and the side menu shows it under Staff with its count, which changes after a record
// is created elsewhere (through the API, reaching the page over the event stream). axe finds nothing serious
// with the dialog open, with the member's Views menu open and with the pinned entry shown. Records are seeded
// through the API.
const RUN = Date.now().toString(36);
const POLL = { timeout: 20_000 };
const views = engine.views;
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

let browser: Browser;
const contexts: BrowserContext[] = [];
let adminToken = '';
let memberToken = '';
const roleName = `看板${RUN}`;

async function api<T>(method: string, path: string, body?: unknown, token = adminToken): Promise<T> {
  const res = await apiFetch(baseURL(), method, path, { token, body });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

async function pageAs(token: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await newContext(browser, { viewport });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: baseURL() }]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

beforeAll(async () => {
  const { username, password } = adminCredentials();
  adminToken = await apiSignIn(baseURL(), username, password);
  browser = await launchBrowser();
  const role = await api<{ id: string }>('POST', 'v1/user/roles', {
    name: roleName,
    state: true,
    permissions: { menu_ids: ['system.users', 'system.users.staff'] },
    data_scope: 'all',
    data_scope_department_ids: [],
    field_access: {},
  });
  const memberName = `viewer${RUN}`;
  const memberPassword = 'Viewer-pass-2026-views';
  await api('POST', 'v1/user/users', { username: memberName, password: memberPassword, name: '看板成员' });
  const staff = await api<{ invitation_url: string }>('POST', 'v1/user/staff', {
    name: `看板成员${RUN}`,
    role_ids: [role.id],
  });
  memberToken = await apiSignIn(baseURL(), memberName, memberPassword);
  const invitation = new URL(staff.invitation_url).searchParams.get('invitation');
  await api('POST', 'v1/user/join', { invitation }, memberToken);
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

for (const [size, viewport] of [
  ['desk', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  describe(`saved views at ${size} size`, () => {
    const tag = `视图${RUN}${size}`;
    const viewName = `${tag}名单`;

    beforeAll(async () => {
      for (const n of [1, 2]) await api('POST', 'v1/user/staff', { name: `${tag}员工${n}` });
    });

    test('saved, shared with a role, seen and pinned by a member, counted live in the menu', async () => {
      // The administrator saves the list's current search as a view shared with the role.
      const admin = await pageAs(adminToken, viewport);
      await admin.goto(`/settings/staff?filter=${encodeURIComponent(JSON.stringify({ q: tag }))}`);
      await admin.getByText(`${tag}员工2`).first().waitFor();
      await admin.getByRole('button', { name: views.button, exact: true }).click();
      await admin.getByRole('menuitem', { name: views.save_current }).click();
      const dialog = admin.getByRole('dialog', { name: views.save_title });
      await dialog.getByRole('textbox', { name: views.name }).fill(viewName);
      await dialog.getByRole('radio', { name: views.shared.roles }).check();
      await dialog.getByRole('checkbox', { name: roleName }).check();
      expect(await seriousViolations(admin)).toEqual([]);
      await dialog.getByRole('button', { name: ra.action.save }).click();
      await admin
        .getByText(fill(views.saved, { name: viewName }))
        .first()
        .waitFor();
      const saved = await api<{ name: string; shared: string; query: { q?: string } }[]>(
        'GET',
        'v1/user/views',
      );
      expect(saved.find((v) => v.name === viewName)).toMatchObject({ shared: 'roles', query: { q: tag } });

      // The member sees it in the staff list's Views menu, applies it and pins it.
      const member = await pageAs(memberToken, viewport);
      await member.goto('/settings/staff');
      await member.getByRole('button', { name: views.button, exact: true }).click();
      // axe with the Views menu open, once its opening transition has ended.
      await member.getByRole('menuitem', { name: new RegExp(viewName) }).waitFor();
      await member.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      expect(await seriousViolations(member)).toEqual([]);
      await member.getByRole('menuitem', { name: new RegExp(viewName) }).click();
      await member.getByText(`${tag}员工1`).first().waitFor();
      await member.getByRole('button', { name: fill(views.button_named, { name: viewName }) }).click();
      await member.getByRole('menuitem', { name: fill(views.my_choices, { name: viewName }) }).click();
      const choices = member.getByRole('dialog');
      // Not its view: no name or sharing to change, only its own pin and default.
      expect(await choices.getByRole('textbox').count()).toBe(0);
      await choices.getByRole('checkbox', { name: views.pin }).check();
      await choices.getByRole('button', { name: ra.action.save }).click();
      await member
        .getByText(fill(views.updated, { name: viewName }))
        .first()
        .waitFor();

      // The side menu (the phone's drawer) shows it under Staff with its count: the two tagged staff.
      if (size === 'phone') await member.getByRole('button', { name: app.sidebar.expand }).click();
      const pinned = member
        .getByRole('list', { name: fill(views.pinned_menu, { page: app.menu.staff }) })
        .getByRole('link', { name: new RegExp(viewName) });
      await expect.poll(async () => (await pinned.innerText()).replace(/\s+/g, ' '), POLL).toMatch(/ ?2$/);
      // A tooltip still fading in reads as low contrast: let transitions end before axe looks.
      await member.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      expect(await seriousViolations(member)).toEqual([]);

      // A record created elsewhere reaches the count over the event stream.
      await api('POST', 'v1/user/staff', { name: `${tag}员工3` });
      await expect.poll(async () => (await pinned.innerText()).replace(/\s+/g, ' '), POLL).toMatch(/ ?3$/);

      // The entry opens the list with the view applied.
      await pinned.click();
      await member.getByText(`${tag}员工3`).first().waitFor();
      await expect.poll(() => new URL(member.url()).pathname).toBe('/settings/staff');
    });
  });
}
