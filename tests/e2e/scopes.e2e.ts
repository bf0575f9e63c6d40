import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import app from '../../locales/zh-CN/app.json';
import people from '../../locales/zh-CN/resources-people.json';
import settings from '../../locales/zh-CN/settings.json';
import { apiFetch, apiSignIn } from './helpers/api.ts';
import { adminCredentials, baseURL, launchBrowser, newContext } from './helpers/browser.ts';
import { roles } from '../../resources/roles.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 30, item 5, in the browser: the role editor's data scope and field table, saved and read back; and a
// member whose role sees its own department, with the staff phone hidden and the email read-only: its list
// (only its department's rows), its form (no phone, the email disabled) and its export (only its rows and
// columns). Everything but the editor's own controls needs the server side of issue 30 (data_scope,
// field_access on roles, GET v1/user/info field_access). Texts from the zh-CN catalogues.
const scope = settings.people.roles.scope;
const levels = settings.people.roles.field_access;
const staffFields = people.staff.fields;
const RUN = Date.now().toString(36);
/**
 * Whether this build's roles carry data_scope and field_access (the server side of issue 30, built on other
 * branches). Until they do, the tests of saved scopes and of a scoped member cannot pass and are skipped;
 * once the resource declares them, they run with no change here.
 */
const hasServerSide = ['data_scope', 'data_scope_department_ids', 'field_access'].every((name) =>
  roles.fields.some((f) => f.name === name),
);

let browser: Browser;
const contexts: BrowserContext[] = [];
let adminToken = '';

beforeAll(async () => {
  const { username, password } = adminCredentials();
  adminToken = await apiSignIn(baseURL(), username, password);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

async function api<T>(method: string, path: string, body?: unknown, token = adminToken): Promise<T> {
  const res = await apiFetch(baseURL(), method, path, { token, body });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

/** A page signed in with `token`, at desk size (or the given viewport). */
async function pageAs(token: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await newContext(browser, { viewport, acceptDownloads: true });
  contexts.push(context);
  await context.addCookies([{ name: 'access_token', value: token, url: baseURL() }]);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const fieldToggle = (page: Page) =>
  page.getByRole('button', { name: new RegExp(`^${people.staff.name_other}：`) }).first();

describe('role editor: data scope and field access', () => {
  for (const [size, viewport] of [
    ['desk', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`offers the scopes, the department tree for custom and each page's field table (${size}, keyboard)`, async () => {
      const east = await api<{ id: string }>('POST', 'v1/user/departments', {
        name: `东区${RUN}${size}`,
        parent_id: '0',
      });
      const page = await pageAs(adminToken, viewport);
      await page.goto('/settings/roles/create');
      const group = page.getByRole('radiogroup', { name: scope.label });
      expect(await group.getByRole('radio', { name: scope.all }).isChecked()).toBe(true);
      // Keyboard: focus the checked scope and walk to "custom" with the arrow keys.
      await group.getByRole('radio', { name: scope.all }).focus();
      for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowDown');
      expect(await group.getByRole('radio', { name: scope.custom }).isChecked()).toBe(true);
      const tree = page.getByRole('group', { name: scope.departments });
      const box = tree.getByRole('checkbox', { name: `东区${RUN}${size}` });
      await box.focus();
      await page.keyboard.press('Space');
      expect(await box.isChecked()).toBe(true);

      const toggle = fieldToggle(page);
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const hidden = page.getByRole('radio', { name: `${staffFields.phone}: ${levels.hidden}` });
      await hidden.focus();
      await page.keyboard.press('Space');
      expect(await hidden.isChecked()).toBe(true);
      await expect.poll(() => fieldToggle(page).textContent()).toContain('1');
      // Nothing wider than the screen.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      // With the department checklist and a field table open, axe finds nothing serious.
      expect(await seriousViolations(page)).toEqual([]);
      expect(east.id).toMatch(/^\d+$/);
    });
  }

  // Waits for the server side (data_scope, field_access on roles).
  test.skipIf(!hasServerSide)(
    'saves the scope, its departments and the field table, and reads them back',
    async () => {
      const dept = await api<{ id: string }>('POST', 'v1/user/departments', {
        name: `定制${RUN}`,
        parent_id: '0',
      });
      const page = await pageAs(adminToken);
      await page.goto('/settings/roles/create');
      await page.getByRole('textbox', { name: people.roles.fields.name }).fill(`范围${RUN}`);
      await page.getByRole('radio', { name: scope.custom }).check();
      await page
        .getByRole('group', { name: scope.departments })
        .getByRole('checkbox', { name: `定制${RUN}` })
        .check();
      await page
        .getByRole('group', { name: 'permissions' })
        .getByRole('checkbox', { name: app.menu.staff, exact: true })
        .check();
      await fieldToggle(page).click();
      await page.getByRole('radio', { name: `${staffFields.phone}: ${levels.hidden}` }).check();
      await page.getByRole('radio', { name: `${staffFields.email}: ${levels.read}` }).check();
      await page.getByRole('button', { name: '保存' }).click();
      await page.waitForURL((url) => url.pathname === '/settings/roles');

      const [role] = await api<{ data: Record<string, unknown>[] }>(
        'GET',
        `v1/user/roles?search=name:${encodeURIComponent(`范围${RUN}`)}`,
      ).then((d) => d.data);
      expect(role).toMatchObject({
        data_scope: 'custom',
        data_scope_department_ids: [dept.id],
        field_access: { 'staff.phone': 'hidden', 'staff.email': 'read' },
      });
      await page.goto(`/settings/roles/${String(role!.id)}`);
      expect(await page.getByRole('radio', { name: scope.custom }).isChecked()).toBe(true);
      expect(
        await page
          .getByRole('group', { name: scope.departments })
          .getByRole('checkbox', { name: `定制${RUN}` })
          .isChecked(),
      ).toBe(true);
      await fieldToggle(page).click();
      expect(
        await page.getByRole('radio', { name: `${staffFields.phone}: ${levels.hidden}` }).isChecked(),
      ).toBe(true);
      expect(
        await page.getByRole('radio', { name: `${staffFields.email}: ${levels.read}` }).isChecked(),
      ).toBe(true);
    },
  );
});

// Waits for the server side: a department-scoped member with field access.
describe.skipIf(!hasServerSide)('a department-scoped member', () => {
  const east = `东部${RUN}`;
  const west = `西部${RUN}`;
  let memberToken = '';
  let eastStaffId = '';

  beforeAll(async () => {
    const eastDept = await api<{ id: string }>('POST', 'v1/user/departments', { name: east, parent_id: '0' });
    const westDept = await api<{ id: string }>('POST', 'v1/user/departments', { name: west, parent_id: '0' });
    const role = await api<{ id: string }>('POST', 'v1/user/roles', {
      name: `东部经理${RUN}`,
      state: true,
      permissions: {
        menu_ids: [
          'system.users',
          'system.users.staff',
          'system.users.staff.update',
          'system.users.staff.export',
        ],
      },
      data_scope: 'department',
      data_scope_department_ids: [],
      field_access: { 'staff.phone': 'hidden', 'staff.email': 'read' },
    });
    const eastStaff = await api<{ id: string }>('POST', 'v1/user/staff', {
      name: `东部员工${RUN}`,
      phone: '13900007001',
      email: `east${RUN}@example.com`,
      department_id: eastDept.id,
    });
    eastStaffId = eastStaff.id;
    await api('POST', 'v1/user/staff', {
      name: `西部员工${RUN}`,
      phone: '13900007002',
      department_id: westDept.id,
    });
    // The member: an account that joins a staff record in the east department holding the role.
    const username = `east${RUN}`;
    const password = 'East-manager-pass-2026';
    await api('POST', 'v1/user/users', { username, password, name: '东部经理' });
    const staff = await api<{ invitation_url: string }>('POST', 'v1/user/staff', {
      name: `东部经理${RUN}`,
      department_id: eastDept.id,
      role_ids: [role.id],
    });
    memberToken = await apiSignIn(baseURL(), username, password);
    const invitation = new URL(staff.invitation_url).searchParams.get('invitation');
    await api('POST', 'v1/user/join', { invitation }, memberToken);
  });

  test('its list shows only its department, without the hidden column', async () => {
    const page = await pageAs(memberToken);
    await page.goto('/settings/staff');
    await page.getByRole('cell', { name: `东部员工${RUN}` }).waitFor();
    expect(await page.getByRole('cell', { name: `西部员工${RUN}` }).count()).toBe(0);
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.join('|')).not.toContain(staffFields.phone);
    expect(headers.join('|')).toContain(staffFields.email);
  });

  test('its form has no hidden field and shows the read-only one disabled', async () => {
    const page = await pageAs(memberToken);
    await page.goto(`/settings/staff/${eastStaffId}`);
    const name = page.getByRole('textbox', { name: new RegExp(`^${staffFields.name}`) });
    await expect.poll(() => name.inputValue()).toBe(`东部员工${RUN}`);
    const email = page.getByRole('textbox', { name: new RegExp(`^${staffFields.email}`) });
    expect(await email.isDisabled()).toBe(true);
    expect(await page.getByRole('textbox', { name: new RegExp(`^${staffFields.phone}`) }).count()).toBe(0);
  });

  test('its export has only its rows and the columns it may read', async () => {
    const page = await pageAs(memberToken);
    await page.goto('/settings/staff');
    await page.getByRole('cell', { name: `东部员工${RUN}` }).waitFor();
    // The export menu offers CSV and Excel.
    await page.getByRole('button', { name: '导出' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV（.csv）' }).click(),
    ]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    const [header, ...rows] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toContain(staffFields.email);
    expect(header).not.toContain(staffFields.phone);
    expect(csv).toContain(`东部员工${RUN}`);
    expect(csv).not.toContain(`西部员工${RUN}`);
    expect(csv).not.toContain('13900007001');
    expect(rows.length).toBeGreaterThan(0);
  });
});
