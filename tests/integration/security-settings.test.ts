import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { staffWithRole as staffWithRoleOf } from '../helpers/users.ts';

// Issue 12, item 2 (contract Amendments, "General settings"): a settings group name never opens general
// settings; reading needs system.settings and system.settings.general, writing system.settings.general.update
// (grantable); a role holds only the actions a page declares.

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** A role saved through the role editor's own call, then a staff member holding it (its token). */
const staffWithRole = async (menuIds: string[]) => (await staffWithRoleOf(t, admin, menuIds)).token;

describe('general settings need their own page name', () => {
  it('ticking only Dictionaries and Resources (which saves the group too) does not open any settings group', async () => {
    // What the role editor saves when only those two pages are ticked: the pages and their group.
    const token = await staffWithRole([
      PERMISSION.settings,
      PERMISSION.settingsDictionaries,
      PERMISSION.settingsResources,
    ]);
    for (const group of ['basic', 'sms', 'login', 'message', 'site']) {
      const res = await t.request({ url: `/api/v1/settings/${group}`, token });
      expect(res.statusCode, group).toBe(403);
      expect(res.json()).toMatchObject({ code: 403, data: null });
    }
    const menus = await t.request({ url: '/api/v1/system/menus', token });
    const names = JSON.stringify(menus.json().data);
    expect(names).toContain(PERMISSION.settingsDictionaries);
    expect(names).not.toContain(`"${PERMISSION.settingsGeneral}"`);
  });

  it('the page name alone (without its group) does not open it either', async () => {
    const token = await staffWithRole([PERMISSION.settingsGeneral]);
    expect((await t.request({ url: '/api/v1/settings/site', token })).statusCode).toBe(403);
  });

  it('group and page read every group but write none', async () => {
    const token = await staffWithRole([PERMISSION.settings, PERMISSION.settingsGeneral]);
    expect((await t.request({ url: '/api/v1/settings/site', token })).statusCode).toBe(200);
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/settings/site',
      token,
      payload: { site_name: 'Not mine' },
    });
    expect(write.statusCode).toBe(403);
  });

  it('system.settings.general.update is grantable and lets a non-admin write, audited', async () => {
    const token = await staffWithRole([
      PERMISSION.settings,
      PERMISSION.settingsGeneral,
      `${PERMISSION.settingsGeneral}.update`,
    ]);
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/settings/site',
      token,
      payload: { site_name: 'Delegated' },
    });
    expect(write.statusCode, write.body).toBe(200);
    const site = await t.request({ url: '/api/v1' });
    expect(site.json().data.config.site_name).toBe('Delegated');
    const audit = await t.db.query(
      `SELECT 1 FROM activity_logs WHERE action = 'settings.update' AND subject_id = 'site'`,
    );
    expect(audit.rows).toHaveLength(1);
  });
});

describe('pages offer only the actions they have', () => {
  it.each([
    `${PERMISSION.systemMonitor}.import`,
    `${PERMISSION.systemMonitor}.update`,
    `${PERMISSION.settingsGeneral}.import`,
    `${PERMISSION.systemLogs}.delete`,
    `${PERMISSION.usersActivities}.create`,
    'system.settings.update',
  ])('a role cannot hold %s (422 naming permissions)', async (name) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/roles',
      token: admin,
      payload: { name: `bad ${name}`, permissions: { menu_ids: [PERMISSION.system, name] } },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['permissions']);
  });

  it.each([
    `${PERMISSION.systemTasks}.create`,
    `${PERMISSION.systemJobs}.update`,
    `${PERMISSION.usersStaff}.import`,
    `${PERMISSION.settingsModules}.update`,
  ])('a role can hold %s', async (name) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/roles',
      token: admin,
      payload: { name: `ok ${name}`, permissions: { menu_ids: [name] } },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
