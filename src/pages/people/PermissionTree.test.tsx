import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n/i18n.ts';
import { PermissionTree } from './PermissionTree.tsx';

let latest: string[] = [];

function Harness({ initial = [] }: { initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  latest = value;
  return <PermissionTree value={value} onChange={setValue} />;
}

const box = (name: string) =>
  screen.getByRole('checkbox', { name: new RegExp(`\\(${name.replace(/\./g, '\\.')}\\)$`) });

describe('PermissionTree', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it('shows every group, page and action', () => {
    render(<Harness />);
    for (const name of [
      'system.users',
      'system.users.staff',
      'system.users.staff.create',
      'system.settings.general.import',
    ])
      expect(box(name)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Staff (system.users.staff)' })).toBeTruthy();
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
});
