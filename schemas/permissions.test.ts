import { describe, expect, it } from 'vitest';
import { PERMISSION, SETTINGS_MENU, filterMenu, menuPermissionNames } from './permissions.ts';
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
