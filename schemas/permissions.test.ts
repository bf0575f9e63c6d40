import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineResource, field, hasOperation } from '../resources/define.ts';
import { resources } from '../resources/index.ts';
import { fixtureResources } from '../tests/fixtures/gadgets.ts';
import {
  PERMISSION,
  PERMISSION_ACTIONS,
  SETTINGS_MENU,
  filterMenu,
  grantablePermissionNames,
  menuPermissionNames,
  pageActions,
  settingsMenu,
  visibleMenu,
} from './permissions.ts';
import type { MenuItem } from './permissions.ts';

const titles = (items: MenuItem[]): unknown =>
  items.map((item) => (item.children ? [item.title, titles(item.children)] : item.title));

describe('filterMenu', () => {
  it('keeps named items in the set, filters children recursively and keeps nameless items', () => {
    const menu: MenuItem[] = [
      {
        name: 'a',
        title: 'A',
        children: [{ name: 'a.x', title: 'AX' }, { name: 'a.y', title: 'AY' }, { title: 'A-free' }],
      },
      { name: 'b', title: 'B', children: [{ name: 'b.x', title: 'BX' }] },
      { title: 'Free' },
    ];
    const held = new Set(['a', 'a.y', 'b.x']);
    expect(titles(filterMenu(menu, (name) => held.has(name)))).toEqual([['A', ['AY', 'A-free']], 'Free']);
  });

  it('does not mutate the shared menu', () => {
    const before = JSON.stringify(SETTINGS_MENU);
    filterMenu(SETTINGS_MENU, () => false);
    expect(JSON.stringify(SETTINGS_MENU)).toBe(before);
  });
});

describe('SETTINGS_MENU', () => {
  it('names only declared permissions, each once', () => {
    const names = menuPermissionNames();
    const declared = new Set<string>(Object.values(PERMISSION));
    expect(names.filter((name) => !declared.has(name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('puts every page under its group prefix', () => {
    for (const group of SETTINGS_MENU) {
      for (const child of group.children ?? []) expect(child.name?.startsWith(`${group.name}.`)).toBe(true);
    }
  });
});

describe('page actions', () => {
  it('every page declares its actions; groups declare none', () => {
    for (const group of SETTINGS_MENU) {
      expect(group.actions).toBeUndefined();
      for (const page of group.children ?? []) expect(Array.isArray(page.actions), page.name).toBe(true);
    }
  });

  it('declares every action the engine serves for a page resource', () => {
    for (const resource of resources) {
      const actions = pageActions(resource.permission);
      for (const action of PERMISSION_ACTIONS)
        if (hasOperation(resource, action)) expect(actions, `${resource.name} ${action}`).toContain(action);
    }
  });

  it('grants only declared actions: no monitor import, general settings only update', () => {
    const names = grantablePermissionNames();
    expect(names.has(`${PERMISSION.systemMonitor}.import`)).toBe(false);
    expect([...names].filter((n) => n.startsWith(`${PERMISSION.settingsGeneral}.`))).toEqual([
      `${PERMISSION.settingsGeneral}.update`,
    ]);
    expect(names.has(PERMISSION.settings)).toBe(true);
  });
});

describe('settingsMenu: a page per resource, from its declaration', () => {
  const registry = [...resources, ...fixtureResources];
  const menu = settingsMenu(registry);

  it('keeps the built-in tree and adds each resource once, under its permission prefix', () => {
    expect(menu.slice(0, SETTINGS_MENU.length).map((g) => g.name)).toEqual(SETTINGS_MENU.map((g) => g.name));
    const names = menuPermissionNames(menu);
    expect(new Set(names).size).toBe(names.length);
    for (const r of registry) expect(names).toContain(r.permission);
    for (const group of menu)
      for (const child of group.children ?? []) expect(child.name?.startsWith(`${group.name}.`)).toBe(true);
  });

  it('offers the actions of the operations a resource has, and keeps `menu: false` grantable but hidden', () => {
    const readOnly = defineResource({
      name: 'ledgers',
      endpoint: 'v1/shop/ledgers',
      permission: 'shop.ledgers',
      schema: z.object({ title: field(z.string().max(10), {}) }),
      operations: ['list', 'read', 'export'],
      menu: false,
    });
    const shop = settingsMenu([readOnly]);
    expect(pageActions('shop.ledgers', shop)).toEqual(['export']);
    const names = grantablePermissionNames(shop);
    expect(names.has('shop.ledgers.export')).toBe(true);
    expect(names.has('shop.ledgers.create')).toBe(false);
    expect(visibleMenu(shop).some((g) => g.name === 'shop')).toBe(false);
    expect(pageActions('test.gadgets', menu)).toEqual(['create', 'update', 'delete', 'export', 'import']);
  });

  it('is memoized per registry and leaves SETTINGS_MENU alone', () => {
    const before = JSON.stringify(SETTINGS_MENU);
    expect(settingsMenu(registry)).toBe(menu);
    settingsMenu([...registry]);
    expect(JSON.stringify(SETTINGS_MENU)).toBe(before);
  });
});
