import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import type { FakeCall } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

/** The trash page and the delete that fills it (issue 36): states, restore, purge, the holders' dialog. */
const CONTACTS = '/api/v1/test/contacts';
const trashed = [
  { id: '7', name: 'Alice', deleted_at: '2026-11-26T09:30:00Z' },
  { id: '8', name: 'Bob', deleted_at: '2026-11-26T10:00:00Z' },
];

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

function api(handler: (call: FakeCall) => unknown) {
  return fakeFetch(async (call) => {
    const custom = await handler(call);
    if (custom) return custom as { body: unknown };
    return { body: listEnvelope([]) };
  });
}

describe('TrashPage', () => {
  it('shows a loading state, then the trashed records with their deleted time', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const held = new Promise((resolve) => (answer = resolve));
    api(async (call) => {
      if (call.path === `${CONTACTS}/trash`) {
        await held;
        return { body: listEnvelope(trashed) };
      }
      return undefined;
    });
    await renderEngine({ path: '/settings/contacts/trash' });
    expect(await screen.findByText('Loading…')).toBeTruthy();
    answer(null);
    const table = await screen.findByRole('table', { name: 'Trashed contacts' });
    expect(within(table).getByRole('columnheader', { name: 'Deleted' })).toBeTruthy();
    const row = within(table).getByText('Alice').closest('tr') as HTMLElement;
    expect(within(row).getByText(/2026/)).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Restore Alice' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the list' }).getAttribute('href')).toBe(
      '/settings/contacts',
    );
  });

  it('says when the trash is empty, in Chinese too', async () => {
    api((call) => (call.path === `${CONTACTS}/trash` ? { body: listEnvelope([]) } : undefined));
    await renderEngine({ path: '/settings/contacts/trash', locale: 'zh-CN' });
    expect(await screen.findByText('回收站是空的')).toBeTruthy();
  });

  it('shows the server message when the trash cannot be read', async () => {
    api((call) =>
      call.path === `${CONTACTS}/trash`
        ? { status: 403, body: { code: 403, message: 'No permission', data: null } }
        : undefined,
    );
    await renderEngine({ path: '/settings/contacts/trash' });
    expect(await screen.findByText('No permission')).toBeTruthy();
  });

  it('restores a record and lists the trash again', async () => {
    let rows = trashed;
    const calls = api((call) => {
      if (call.path === `${CONTACTS}/trash/7/restore` && call.method === 'POST') {
        rows = trashed.slice(1);
        return { body: { code: 200, data: trashed[0] } };
      }
      if (call.path === `${CONTACTS}/trash`) return { body: listEnvelope(rows) };
      return undefined;
    });
    await renderEngine({ path: '/settings/contacts/trash' });
    await userEvent.click(await screen.findByRole('button', { name: 'Restore Alice' }));
    expect(await screen.findByText('Alice restored')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Restore Alice' })).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `${CONTACTS}/trash/7/restore`,
    ]);
  });

  it('purges only after a confirm naming the record', async () => {
    let rows = trashed;
    const calls = api((call) => {
      if (call.path === `${CONTACTS}/trash/8` && call.method === 'DELETE') {
        rows = trashed.slice(0, 1);
        return { body: { code: 200, data: null } };
      }
      if (call.path === `${CONTACTS}/trash`) return { body: listEnvelope(rows) };
      return undefined;
    });
    await renderEngine({ path: '/settings/contacts/trash' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete for good: Bob' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete Bob for good?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await screen.findByText('Bob deleted for good')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Bob')).toBeNull());
  });

  it('shows a refused restore as the server says it', async () => {
    api((call) => {
      if (call.path === `${CONTACTS}/trash/7/restore`)
        return { status: 409, body: { code: 409, message: 'Restore the department first', data: null } };
      if (call.path === `${CONTACTS}/trash`) return { body: listEnvelope(trashed) };
      return undefined;
    });
    await renderEngine({ path: '/settings/contacts/trash' });
    await userEvent.click(await screen.findByRole('button', { name: 'Restore Alice' }));
    expect(await screen.findByText('Restore the department first')).toBeTruthy();
  });
});

describe('deleting into the trash', () => {
  it('offers the trash from the list, and the toast says the record went there', async () => {
    api((call) => {
      if (call.path === CONTACTS && call.method === 'GET')
        return { body: listEnvelope([{ id: '1', name: 'Alice', role_ids: [] }]) };
      if (call.method === 'DELETE') return { body: { code: 200, data: null } };
      return undefined;
    });
    await renderEngine({ path: '/settings/contacts' });
    const row = (await screen.findByText('Alice')).closest('tr') as HTMLElement;
    expect(screen.getByRole('link', { name: 'Trash' }).getAttribute('href')).toBe('/settings/contacts/trash');
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Alice moved to the trash')).toBeTruthy();
  });

  it('offers to remove a held role from its staff, then deletes it with detach=1', async () => {
    const calls = api((call) => {
      if (call.path === '/api/v1/test/roles' && call.method === 'GET')
        return { body: listEnvelope([{ id: '3', name: 'Editor' }]) };
      if (call.path === '/api/v1/test/roles/3' && call.method === 'DELETE')
        return call.query.get('detach') === '1'
          ? { body: { code: 200, data: null } }
          : {
              status: 409,
              body: { code: 409, message: 'Held by 2 staff', data: null, errors: { holders: 2 } },
            };
      return undefined;
    });
    await renderEngine({ path: '/settings/roles' });
    const row = (await screen.findByText('Editor')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const holders = await screen.findByRole('dialog', { name: 'Editor is still in use' });
    expect(within(holders).getByText(/Staff holding Editor: 2/)).toBeTruthy();
    await userEvent.click(within(holders).getByRole('button', { name: 'Remove from 2 staff and delete' }));
    expect(await screen.findByText('Editor moved to the trash')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.query.get('detach'))).toEqual([null, '1']);
  });

  it('shows a refused delete of a resource that cannot detach as the server says it', async () => {
    api((call) => {
      if (call.path === '/api/v1/test/departments' && call.method === 'GET')
        return { body: listEnvelope([{ id: '4', name: 'Sales' }]) };
      if (call.method === 'DELETE')
        return {
          status: 409,
          body: { code: 409, message: 'Used by 3 staff or departments', data: null, errors: { holders: 3 } },
        };
      return undefined;
    });
    await renderEngine({ path: '/settings/departments' });
    const row = (await screen.findByText('Sales')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Used by 3 staff or departments')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove from/ })).toBeNull();
  });
});
