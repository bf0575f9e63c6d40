import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { FIXTURE_MIGRATIONS, createGadgetLabels } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/**
 * Issue 15 item 1: a resource's menu page and permission names come from its declaration (the gadgets
 * fixture declares `menu: { icon: 'Widgets', order: 10 }`, its parts `menu: false`): the menu shows it, a
 * role may be granted its names alone (through the API, validated), and the server checks them.
 */
let t: TestApp;
let admin: string;

const call = (method: string, url: string, token: string | undefined, payload?: object) =>
  t.request({
    method: method as 'GET',
    url: `/api/${url}`,
    token,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });

interface WireItem {
  name: string | null;
  title: string;
  title_key: string;
  icon: string | null;
  path: string | null;
  children?: WireItem[];
}

beforeAll(async () => {
  // The real resources (roles, staff) and the fixture ones side by side, as the e2e fixture server runs them.
  createGadgetLabels();
  const fixtures = createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS });
  t = await createTestApp({}, { extraModules: [{ ...fixtures, name: 'fixture-resources' }] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('menu pages from the resource declaration', () => {
  it('puts the fixture resources in their own group, titled by their labels, after the built-in groups', async () => {
    const menu = (await call('GET', 'v1/system/menus', admin)).json().data as WireItem[];
    expect(menu.slice(0, 3).map((g) => g.name)).toEqual(['system.settings', 'system.users', 'system.system']);
    const group = menu.find((g) => g.name === 'test');
    expect(group).toMatchObject({ title: 'Tests', title_key: 'app.menu.test' });
    const pages = group!.children!;
    // order 10 first, then the default order by name; `menu: false` (gadget_parts) is not shown.
    expect(pages.map((p) => p.name)).toEqual([
      'test.gadgets',
      'test.gadget_makers',
      'test.gadget_shipments',
      'test.gadget_tags',
    ]);
    expect(pages[0]).toMatchObject({
      title: 'Gadgets',
      title_key: 'resources.gadgets.name_other',
      icon: 'Widgets',
      path: '/settings/gadgets',
    });
  });
});

describe('permission names from the resource declaration', () => {
  const roleWith = (menuIds: string[]) =>
    call('POST', 'v1/user/roles', admin, { name: `r${Math.random()}`, permissions: { menu_ids: menuIds } });

  it('grants the resource names alone, hidden pages too; an unknown action is a 422', async () => {
    const ok = await roleWith(['test', 'test.gadgets', 'test.gadgets.create', 'test.gadget_parts.update']);
    expect(ok.statusCode).toBe(201);
    const bad = await roleWith(['test', 'test.gadgets', 'test.gadgets.approve']);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.permissions).toEqual(['Unknown permission name']);
  });

  it('a member of a role granted only gadgets reads and creates gadgets and nothing else', async () => {
    const role = await roleWith(['test', 'test.gadgets', 'test.gadgets.create']);
    const member = await createUser(t.db, { staff: {} });
    const linked = await call('PATCH', `v1/user/staff/${member.staffId}`, admin, {
      role_ids: [role.json().data.id],
    });
    expect(linked.statusCode).toBe(200);

    expect((await call('GET', 'v1/test/gadgets', member.token)).statusCode).toBe(200);
    const maker = await call('POST', 'v1/test/gadget-makers', admin, { name: 'Acme' });
    const created = await call('POST', 'v1/test/gadgets', member.token, {
      name: 'Granted',
      sku: `G-${Date.now()}`,
      price: 5,
      maker_id: maker.json().data.id,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    expect((await call('PATCH', `v1/test/gadgets/${id}`, member.token, { name: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', `v1/test/gadgets/${id}`, member.token)).statusCode).toBe(403);
    expect((await call('GET', 'v1/test/gadgets/export', member.token)).statusCode).toBe(403);
    expect((await call('GET', 'v1/test/gadget-makers', member.token)).statusCode).toBe(403);
    expect((await call('GET', 'v1/user/staff', member.token)).statusCode).toBe(403);

    const menu = (await call('GET', 'v1/system/menus', member.token)).json().data as WireItem[];
    expect(menu.map((g) => [g.name, (g.children ?? []).map((c) => c.name)])).toEqual([
      ['test', ['test.gadgets']],
    ]);
  });
});
