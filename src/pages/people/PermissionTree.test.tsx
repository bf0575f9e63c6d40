import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n, loadAdminMessages } from '../../i18n/i18n.ts';
import { PermissionTree } from './PermissionTree.tsx';

let latest: string[] = [];

function Harness({ initial = [] }: { initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  latest = value;
  return <PermissionTree value={value} onChange={setValue} />;
}

/**
 * The box of a permission key, found by its accessible name: the name its `data-permission` box carries, which
 * must read as words (no key) and name that one box only (getByRole throws on two).
 */
const box = (key: string) => {
  const name = document.querySelector(`input[data-permission="${key}"]`)?.getAttribute('aria-label');
  if (!name) throw new Error(`no box for ${key}`);
  expect(name).not.toMatch(/system\./);
  return screen.getByRole('checkbox', { name });
};

describe('PermissionTree', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initI18n('en');
    await loadAdminMessages(['settings']);
  });

  it('shows every group, page and action', () => {
    render(<Harness />);
    for (const name of [
      'system.users',
      'system.users.staff',
      'system.users.staff.create',
      'system.settings.general.update',
    ])
      expect(box(name)).toBeTruthy();
  });

  it('offers on each page only the actions the page declares', () => {
    render(<Harness />);
    const names = screen.getAllByRole('checkbox').map((el) => el.getAttribute('data-permission'));
    expect(names.filter((n) => n?.startsWith('system.system.monitor.'))).toEqual([]);
    expect(names.filter((n) => n?.startsWith('system.settings.general.'))).toEqual([
      'system.settings.general.update',
    ]);
    expect(names).not.toContain('system.system.logs.import');
    expect(names).toContain('system.system.tasks.delete');
    expect(screen.getByRole('checkbox', { name: 'Staff' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Staff · Create' })).toBeTruthy();
  });

  it('names every box in words, each name once: no permission key is read aloud', () => {
    render(<Harness />);
    const names = screen.getAllByRole('checkbox').map((el) => el.getAttribute('aria-label') ?? '');
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) expect(name).not.toMatch(/system\./);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('Roles · Delete');
  });

  it('checking an action checks its page and group', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box('system.users.staff.create'));
    expect([...latest].sort()).toEqual(['system.users', 'system.users.staff', 'system.users.staff.create']);
    expect((box('system.users') as HTMLInputElement).checked).toBe(true);
    expect((box('system.users.staff') as HTMLInputElement).checked).toBe(true);
    expect((box('system.users.roles') as HTMLInputElement).checked).toBe(false);
  });

  it('checking a page checks its group; unchecking the group clears everything below it', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['system.settings.general']} />);
    await user.click(box('system.users.roles'));
    expect([...latest].sort()).toEqual(['system.settings.general', 'system.users', 'system.users.roles']);
    await user.click(box('system.users.roles.update'));
    await user.click(box('system.users'));
    expect(latest).toEqual(['system.settings.general']);
    expect((box('system.users.roles.update') as HTMLInputElement).checked).toBe(false);
  });

  it('shows a parent half-checked when only some of its children are checked', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box('system.settings.dictionaries'));
    expect([...latest].sort()).toEqual(['system.settings', 'system.settings.dictionaries']);
    expect(box('system.settings').getAttribute('aria-checked')).toBe('mixed');
    expect((box('system.settings.dictionaries') as HTMLInputElement).checked).toBe(true);
    expect(box('system.settings.dictionaries').getAttribute('aria-checked')).toBeNull();
    await user.click(box('system.settings.dictionaries.update'));
    expect(box('system.settings.dictionaries').getAttribute('aria-checked')).toBe('mixed');
    for (const name of ['system.settings.general', 'system.settings.modules', 'system.settings.resources'])
      await user.click(box(name));
    for (const name of ['create', 'delete', 'export'])
      await user.click(box(`system.settings.dictionaries.${name}`));
    await user.click(box('system.settings.general.update'));
    await user.click(box('system.settings.delivery'));
    await user.click(box('system.settings.modules.update'));
    for (const name of ['create', 'delete', 'export'])
      await user.click(box(`system.settings.resources.${name}`));
    expect(box('system.settings').getAttribute('aria-checked')).not.toBe('mixed');
    expect((box('system.settings') as HTMLInputElement).checked).toBe(true);
  });

  it('offers the delivery permission under general settings, marked dangerous with the reason', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const delivery = screen.getByRole('checkbox', {
      name: 'Delivery settings (SMTP, sender, SMS gateway)',
    });
    expect(screen.getByText('Dangerous')).toBeTruthy();
    const hint = document.getElementById(delivery.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toMatch(/can take over any account, administrators included/);
    await user.click(delivery);
    expect([...latest].sort()).toEqual([
      'system.settings',
      'system.settings.delivery',
      'system.settings.general',
    ]);
  });
});
