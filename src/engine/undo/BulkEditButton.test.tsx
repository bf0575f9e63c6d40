import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import type { FakeCall } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

const rows = [
  {
    id: '1',
    name: 'Alice',
    email: 'alice@example.com',
    age: 30,
    gender: 'female',
    state: true,
    role_ids: [],
  },
  { id: '2', name: 'Bob', email: 'bob@example.com', age: 40, gender: 'male', state: false, role_ids: [] },
];

function api(handler?: (call: FakeCall) => unknown) {
  return fakeFetch((call) => {
    const custom = handler?.(call);
    if (custom) return custom as { body: unknown };
    if (call.path === '/api/v1/test/contacts' && call.method === 'GET') return { body: listEnvelope(rows) };
    return { body: listEnvelope([]) };
  });
}

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

async function openDialog() {
  await renderEngine({ path: '/settings/contacts' });
  await screen.findByText('Bob');
  await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Edit selected' }, { timeout: 10_000 }));
  return screen.findByRole('dialog', { name: 'Edit 2 selected' });
}

describe('BulkEditButton', () => {
  it('offers the writable, non-unique fields, validates like the form, sends one bulk PATCH and offers Undo', async () => {
    const calls = api((call) => {
      if (call.method === 'PATCH')
        return { body: { code: 200, data: ['1', '2'], meta: { operation_id: 'op-1' } } };
      if (call.method === 'POST' && call.path === '/api/v1/operations/op-1/undo')
        return { body: { code: 200, data: { reverted: ['1', '2'], skipped: [] } } };
      return undefined;
    });
    const dialog = await openDialog();
    const picks = within(dialog).getByRole('group', { name: 'Fields to change' });
    // Unique (email), read-only (code) and write-only (password) fields are not offered.
    expect(within(picks).queryByRole('checkbox', { name: 'Email' })).toBeNull();
    expect(within(picks).queryByRole('checkbox', { name: 'Code' })).toBeNull();
    expect(within(picks).queryByRole('checkbox', { name: 'Password' })).toBeNull();
    expect(within(dialog).getByText('Pick the fields to change')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Change 2' })).toHaveProperty('disabled', true);

    await userEvent.click(within(picks).getByRole('checkbox', { name: 'Age' }));
    expect(within(dialog).getByText('2 records will change')).toBeTruthy();
    const age = within(dialog).getByRole('spinbutton', { name: 'Age' });
    await userEvent.type(age, '-3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change 2' }));
    // The form's own validation: a negative age is refused before anything is sent.
    expect(await within(dialog).findByText('Must be at least 0')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.clear(age);
    await userEvent.type(age, '41');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change 2' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patches = calls.filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]?.query.get('ids')).toBe('1,2');
    expect(patches[0]?.body).toEqual({ age: 41 });

    const toast = await screen.findByText('2 changed');
    await userEvent.click(
      within(toast.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Undo' }),
    );
    await waitFor(() => expect(calls.some((c) => c.path === '/api/v1/operations/op-1/undo')).toBe(true));
    expect(await screen.findByText('Undone: 2 put back, 0 left as they are')).toBeTruthy();
  });

  it('works from the keyboard and in Chinese', async () => {
    const calls = api((call) =>
      call.method === 'PATCH'
        ? { body: { code: 200, data: ['1', '2'], meta: { operation_id: 'op-2' } } }
        : undefined,
    );
    await renderEngine({ path: '/settings/contacts', locale: 'zh-CN' });
    await screen.findByText('Bob');
    const all = screen.getAllByRole('checkbox')[0] as HTMLElement;
    all.focus();
    await userEvent.keyboard(' ');
    const open = await screen.findByRole('button', { name: '批量编辑' }, { timeout: 10_000 });
    open.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '编辑所选的 2 条' });
    const picks = within(dialog).getByRole('group', { name: '要修改的字段' });
    within(picks)
      .getByRole('checkbox', { name: /Age|年龄/ })
      .focus();
    await userEvent.keyboard(' ');
    within(dialog).getByRole('spinbutton').focus();
    await userEvent.keyboard('7');
    expect(within(dialog).getByText('将修改 2 条记录')).toBeTruthy();
    within(dialog).getByRole('button', { name: '修改 2 条' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.query.get('ids')).toBe('1,2');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ age: 7 });
  });
});
