import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import { AdminContext, Notification, RecordContextProvider, memoryStore } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STAFF_INCLUDE, profileKey, type Profile } from '../../providers/profile.ts';
import type { ResourceDescriptor } from '../data/descriptor.ts';
import { fakeFetch } from '../testing/fakeFetch.ts';
import { ADMIN_PROFILE, testDescriptors, testI18nProvider } from '../testing/renderEngine.tsx';
import { RecordActionButtons } from './RecordActionButtons.tsx';

/**
 * Row action buttons on a record's toolbar (issue 35 item 7): one per action the caller holds, a confirm
 * naming the record, the call with the record's version, a toast and the server's refusal as its message.
 */
vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const base = testDescriptors.find((r) => r.name === 'contacts')!;
const contacts: ResourceDescriptor = {
  ...base,
  options: {
    ...base.options,
    actions: {
      clone: { label: 'ra.action.clone', confirm: 'ra.message.are_you_sure' },
      ship: {
        label: 'ra.action.save',
        confirm: 'ra.message.are_you_sure',
        hasInput: true,
        inputFields: [{ name: 'quantity', kind: 'int', required: true }],
      },
    },
  },
};
const record = { id: '7', name: 'Alice', version: 3 };

async function renderButtons(profile: Profile = ADMIN_PROFILE) {
  Cookies.set('access_token', 'test-token');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(profileKey(STAFF_INCLUDE), profile);
  return render(
    <AdminContext queryClient={queryClient} i18nProvider={await testI18nProvider('en')} store={memoryStore()}>
      <RecordContextProvider value={record}>
        <RecordActionButtons resource={contacts} />
      </RecordContextProvider>
      <Notification />
    </AdminContext>,
  );
}

describe('record action buttons', () => {
  it('confirm naming the record, then call the action with its version', async () => {
    const calls = fakeFetch(() => ({ body: { code: 200, data: { ...record, version: 4 } } }));
    await renderButtons();
    expect(screen.getAllByRole('button')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Clone' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Clone: Alice')).toBeTruthy();
    expect(calls).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone' }));
    expect(await screen.findByText('Clone: done for Alice')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/api/v1/test/contacts/7/actions/clone', { version: 3 }],
    ]);
  });

  it('open the form of an action with an input: required, the 422 under its field, then the call', async () => {
    const calls = fakeFetch((call) =>
      (call.body as { input?: { quantity?: number } })?.input?.quantity === 0
        ? {
            status: 422,
            body: {
              code: 422,
              message: 'Invalid data',
              errors: { quantity: ['Must be at least 1'] },
              data: null,
            },
          }
        : { body: { code: 200, data: { ...record, version: 4 } } },
    );
    await renderButtons();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    // The confirm question sits above the inputs.
    expect(within(dialog).getByText('Are you sure?')).toBeTruthy();
    const quantity = within(dialog).getByRole('spinbutton', { name: /quantity/ });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.change(quantity, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must be at least 1')).toBeTruthy();
    fireEvent.change(quantity, { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save: done for Alice')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/api/v1/test/contacts/7/actions/ship', { version: 3, input: { quantity: 0 } }],
      ['/api/v1/test/contacts/7/actions/ship', { version: 3, input: { quantity: 3 } }],
    ]);
  });

  it("show the server's refusal as its message", async () => {
    fakeFetch(() => ({
      status: 409,
      body: { code: 409, message: 'Someone else changed this record', data: null },
    }));
    await renderButtons();
    fireEvent.click(screen.getByRole('button', { name: 'Clone' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clone' }));
    expect(await screen.findByText('Someone else changed this record')).toBeTruthy();
  });

  it('offer nothing to a caller without the permission', async () => {
    fakeFetch(() => ({ body: { code: 200, data: null } }));
    const { container } = await renderButtons({
      id: '2',
      username: 'member',
      staff: { id: '2', is_admin: 0, roles: [] },
    } as Profile);
    expect(container.querySelectorAll('button')).toHaveLength(0);
  });
});
