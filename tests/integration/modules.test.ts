import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

interface WireModule {
  name: string;
  title: string;
  description: string;
  core: boolean;
  enabled: boolean;
}
interface WireMenu {
  name: string | null;
  children?: WireMenu[];
}
const menuNames = (items: WireMenu[]): string[] =>
  items.flatMap((i) => [...(i.name ? [i.name] : []), ...menuNames(i.children ?? [])]);

async function menus(): Promise<string[]> {
  const res = await t.request({ url: '/api/v1/system/menus', token: admin });
  expect(res.statusCode).toBe(200);
  return menuNames((res.json() as { data: WireMenu[] }).data);
}

describe('v1/system/modules', () => {
  it('lists the modules with description and state; core ones are marked', async () => {
    const res = await t.request({
      url: '/api/v1/system/modules',
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(200);
    const list = (res.json() as { data: WireModule[] }).data;
    const byName = Object.fromEntries(list.map((m) => [m.name, m]));
    expect(Object.keys(byName)).toEqual(
      expect.arrayContaining([
        'users',
        'settings',
        'dictionaries',
        'files',
        'activities',
        'wechat',
        'system',
      ]),
    );
    expect(byName.users).toMatchObject({ core: true, enabled: true });
    expect(byName.settings).toMatchObject({ core: true, enabled: true });
    expect(byName.dictionaries).toMatchObject({ core: false, enabled: true, title: 'Dictionaries' });
    expect(byName.dictionaries!.description).not.toBe('');
  });

  it('needs system.settings.modules to list and .update to switch', async () => {
    const reader = await createUser(t.db, { staff: { permissions: [PERMISSION.settingsModules] } });
    const outsider = await createUser(t.db, { staff: { permissions: [PERMISSION.usersStaff] } });
    expect((await t.request({ url: '/api/v1/system/modules' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/system/modules', token: outsider.token })).statusCode).toBe(403);
    expect((await t.request({ url: '/api/v1/system/modules', token: reader.token })).statusCode).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/system/modules/wechat/disable',
      token: reader.token,
    });
    expect(res.statusCode).toBe(403);
  });

  it('disabling hides the menus and makes the API answer 404; enabling restores both', async () => {
    expect(await menus()).toContain(PERMISSION.settingsDictionaries);
    expect((await t.request({ url: '/api/v1/dictionary/types', token: admin })).statusCode).toBe(200);

    const off = await t.request({
      method: 'POST',
      url: '/api/v1/system/modules/dictionaries/disable',
      token: admin,
    });
    expect(off.statusCode).toBe(200);
    expect((off.json() as { data: WireModule }).data).toMatchObject({ name: 'dictionaries', enabled: false });
    expect(await menus()).not.toContain(PERMISSION.settingsDictionaries);
    expect(await menus()).toContain(PERMISSION.usersStaff);
    const gone = await t.request({ url: '/api/v1/dictionary/types', token: admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 404 });
    const gonePost = await t.request({
      method: 'POST',
      url: '/api/v1/dictionary/types',
      token: admin,
      payload: { name: 'x', slug: 'x', data: [] },
    });
    expect(gonePost.statusCode).toBe(404);
    // Other modules keep working.
    expect((await t.request({ url: '/api/v1/user/departments', token: admin })).statusCode).toBe(200);
    const list = (await t.request({ url: '/api/v1/system/modules', token: admin })).json() as {
      data: WireModule[];
    };
    expect(list.data.find((m) => m.name === 'dictionaries')?.enabled).toBe(false);

    const on = await t.request({
      method: 'POST',
      url: '/api/v1/system/modules/dictionaries/enable',
      token: admin,
    });
    expect(on.statusCode).toBe(200);
    expect(await menus()).toContain(PERMISSION.settingsDictionaries);
    expect((await t.request({ url: '/api/v1/dictionary/types', token: admin })).statusCode).toBe(200);
  });

  it('disabling the system tools hides the System group pages and their API', async () => {
    await t.request({ method: 'POST', url: '/api/v1/system/modules/system/disable', token: admin });
    expect(await menus()).not.toContain(PERMISSION.systemMonitor);
    expect((await t.request({ url: '/api/v1/system/monitor', token: admin })).statusCode).toBe(404);
    expect((await t.request({ url: '/api/v1/system/logs', token: admin })).statusCode).toBe(404);
    // The modules page itself is core and stays.
    expect((await t.request({ url: '/api/v1/system/modules', token: admin })).statusCode).toBe(200);
    await t.request({ method: 'POST', url: '/api/v1/system/modules/system/enable', token: admin });
    expect((await t.request({ url: '/api/v1/system/monitor', token: admin })).statusCode).toBe(200);
  });

  it('core modules cannot be disabled (422) and unknown ones are 404', async () => {
    for (const name of ['users', 'settings']) {
      const res = await t.request({
        method: 'POST',
        url: `/api/v1/system/modules/${name}/disable`,
        token: admin,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 422, errors: { name: [expect.any(String)] } });
    }
    expect((await t.request({ url: '/api/v1/user/staff', token: admin })).statusCode).toBe(200);
    const unknown = await t.request({
      method: 'POST',
      url: '/api/v1/system/modules/nope/disable',
      token: admin,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('writes the switch to the activity log', async () => {
    await t.request({ method: 'POST', url: '/api/v1/system/modules/wechat/disable', token: admin });
    await t.request({ method: 'POST', url: '/api/v1/system/modules/wechat/enable', token: admin });
    const { rows } = await t.db.query<{ action: string }>(
      `SELECT action FROM activity_logs WHERE subject_type = 'modules' AND subject_id = 'wechat' ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['modules.disable', 'modules.enable']);
  });
});
