import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { FIXTURE_MIGRATIONS, createGadgetLabels } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { fixturePages } from '../fixtures/pages.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/**
 * Issue 35 item 11: a custom page a module declares (tests/fixtures/pages.ts, `test.gadget_report`) is in the
 * menu of callers holding its permission, in its group by its order, titled in the caller's language, and a
 * role may be granted its name through the API; schemas/permissions.ts names none of it.
 */
let t: TestApp;
let admin: string;

interface WireItem {
  name: string | null;
  title: string;
  title_key: string;
  icon: string | null;
  path: string | null;
  children?: WireItem[];
}

const call = (method: string, url: string, token: string | undefined, payload?: object, language = 'en') =>
  t.request({
    method: method as 'GET',
    url: `/api/${url}`,
    token,
    headers: { 'accept-language': language },
    ...(payload ? { payload } : {}),
  });

const roleWith = (menuIds: string[]) =>
  call('POST', 'v1/user/roles', admin, { name: `r${Math.random()}`, permissions: { menu_ids: menuIds } });

beforeAll(async () => {
  createGadgetLabels();
  // The product's resources (roles, staff) and the fixture's with its page, as the e2e fixture server runs them.
  const fixtures = createResourcesModule({
    resources: fixtureResources,
    migrationsDir: FIXTURE_MIGRATIONS,
    pages: fixturePages,
  });
  t = await createTestApp({}, { extraModules: [{ ...fixtures, name: 'fixture-resources' }] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  admin = await t.adminToken();
}, 180_000);
afterAll(() => t.close());

describe('a custom page', () => {
  it('is in its group of the menu by its order, with its path, icon and title in both languages', async () => {
    for (const [language, title] of [
      ['en', 'Gadget report'],
      ['zh-CN', '小工具报表'],
    ] as const) {
      const menu = (await call('GET', 'v1/system/menus', admin, undefined, language)).json()
        .data as WireItem[];
      const group = menu.find((g) => g.name === 'test')!;
      // order 5: before the gadgets (order 10) and the pages of the default order.
      expect(group.children!.map((p) => p.name).slice(0, 2)).toEqual(['test.gadget_report', 'test.gadgets']);
      expect(group.children![0]).toMatchObject({
        title,
        title_key: 'app.pages.gadget_report',
        icon: 'Article',
        path: '/settings/gadget-report',
      });
    }
  });

  it('is grantable alone, takes no actions, and shows only to a role holding it', async () => {
    expect((await roleWith(['test', 'test.gadget_report.update'])).statusCode).toBe(422);
    const role = await roleWith(['test', 'test.gadget_report']);
    expect(role.statusCode).toBe(201);
    const other = await roleWith(['test', 'test.gadgets']);
    expect(other.statusCode).toBe(201);

    const holder = await createUser(t.db, { staff: {} });
    const outsider = await createUser(t.db, { staff: {} });
    for (const [member, granted] of [
      [holder, role],
      [outsider, other],
    ] as const) {
      const linked = await call('PATCH', `v1/user/staff/${member.staffId}`, admin, {
        role_ids: [granted.json().data.id],
      });
      expect(linked.statusCode).toBe(200);
    }
    const menuOf = async (token: string) =>
      ((await call('GET', 'v1/system/menus', token)).json().data as WireItem[]).map((g) => [
        g.name,
        (g.children ?? []).map((c) => c.name),
      ]);
    expect(await menuOf(holder.token)).toEqual([['test', ['test.gadget_report']]]);
    expect(await menuOf(outsider.token)).toEqual([['test', ['test.gadgets']]]);
    // The role as stored and read back keeps the page's name.
    const read = await call('GET', `v1/user/roles/${role.json().data.id}`, admin);
    expect(read.json().data.permissions.menu_ids).toEqual(['test', 'test.gadget_report']);
  });
});
