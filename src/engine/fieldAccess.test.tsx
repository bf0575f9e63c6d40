import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../providers/profile.ts';
import { fakeFetch, listEnvelope, type FakeCall } from './testing/fakeFetch.ts';
import { renderEngine } from './testing/renderEngine.tsx';

// A staff member whose role reads, creates, updates and exports contacts; its field access (GET v1/user/info)
// hides phone and age and makes email read-only.
const member: Profile = {
  id: '2',
  username: 'member',
  staff: {
    id: '2',
    is_admin: 0,
    roles: [
      {
        id: '1',
        name: 'r',
        permissions: {
          menu_ids: [
            'test.contacts',
            'test.contacts.create',
            'test.contacts.update',
            'test.contacts.export',
            'test.kits',
            'test.kit_items',
          ],
        },
      },
    ],
  },
};
const FIELD_ACCESS = {
  'contacts.phone': 'hidden',
  'contacts.age': 'hidden',
  'contacts.email': 'read',
  'kit_items.quantity': 'hidden',
};
const alice = {
  id: '1',
  name: 'Alice',
  email: 'alice@example.com',
  gender: 'female',
  state: true,
  role_ids: [],
  code: 'C-1',
  is_vip: 0,
};

vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

/** The contacts API; `v1/user/info` answers the member's field access; `other` answers what it matches. */
function api(
  other: (call: FakeCall) => Response | { status?: number; body: unknown } | undefined = () => undefined,
) {
  return fakeFetch((call) => {
    if (call.path === '/api/v1/user/info')
      return { body: { code: 200, data: { field_access: FIELD_ACCESS } } };
    const answer = other(call);
    if (answer) return answer;
    if (call.path === '/api/v1/test/contacts/1') return { body: { code: 200, data: alice } };
    return { body: listEnvelope([alice]) };
  });
}

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent ?? '');

describe('the generated screens follow the caller’s field access', () => {
  it('the list has no column, column-chooser entry or filter of a hidden field', async () => {
    api();
    await renderEngine({ path: '/settings/contacts', profile: member });
    await screen.findByText('Alice');
    expect(headers()).toEqual(expect.arrayContaining(['Name', 'Email']));
    expect(headers()).not.toContain('Phone');
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    expect(await screen.findByRole('switch', { name: 'Email' })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Phone' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(await screen.findByRole('menuitemcheckbox', { name: 'Department' })).toBeTruthy();
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Age' })).toBeNull();
  });

  it('an administrator (no field access) sees the same fields, and asks for none', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    expect(headers()).toContain('Phone');
    expect(calls.some((c) => c.path === '/api/v1/user/info')).toBe(false);
  });

  it('the edit form leaves a hidden field out and shows a read-only one disabled, never sending either', async () => {
    const calls = api((call) =>
      call.method === 'PATCH' ? { body: { code: 200, data: { ...alice, name: 'Alicia' } } } : undefined,
    );
    await renderEngine({ path: '/settings/contacts/1', profile: member });
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Alice'));
    const email = screen.getByRole('textbox', { name: /^Email/ }) as HTMLInputElement;
    expect(email.disabled).toBe(true);
    expect(email.value).toBe('alice@example.com');
    expect(screen.queryByRole('textbox', { name: /^Phone/ })).toBeNull();
    expect(screen.queryByRole('spinbutton', { name: /^Age/ })).toBeNull();
    await userEvent.clear(name);
    await userEvent.type(name, 'Alicia');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Alicia' });
  });

  it('the create form shows a read-only field disabled and does not require or send it', async () => {
    const calls = api((call) =>
      call.method === 'POST' ? { status: 201, body: { code: 200, data: { ...alice, id: '9' } } } : undefined,
    );
    await renderEngine({ path: '/settings/contacts/create', profile: member });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Dora');
    expect((screen.getByRole('textbox', { name: /^Email/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('textbox', { name: /^Phone/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
    expect(body.name).toBe('Dora');
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['email']));
    expect(Object.keys(body)).not.toContain('phone');
  });

  it('the show page has no row for a hidden field', async () => {
    api();
    await renderEngine({ path: '/settings/contacts/1/show', profile: member });
    expect(await screen.findByText('alice@example.com')).toBeTruthy();
    expect(screen.queryByText('Phone')).toBeNull();
    expect(screen.getByText('Email')).toBeTruthy();
  });

  it('an inline list on the show page has no column of a hidden child field', async () => {
    const kit = {
      id: '1',
      name: 'Toolbox',
      items: [
        { id: '11', kit_id: '1', name: 'Hammer', quantity: 2 },
        { id: '12', kit_id: '1', name: 'Screwdriver', quantity: 5 },
      ],
    };
    api((call) => (call.path === '/api/v1/test/kits/1' ? { body: { code: 200, data: kit } } : undefined));
    await renderEngine({ path: '/settings/kits/1/show', profile: member });
    const table = (await screen.findByText('Screwdriver')).closest('table') as HTMLElement;
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    expect(within(table).queryByRole('columnheader', { name: 'Quantity' })).toBeNull();
  });

  // The server's default export columns are the caller's readable ones (scopes.e2e.ts, the generated access
  // tests): naming them here could only add a reference the caller may not read (a 403).
  it('the export leaves the columns to the server (no fields=)', async () => {
    const calls = api((call) =>
      call.path.endsWith('/export')
        ? new Response('\uFEFFName\nAlice\n', {
            headers: {
              'content-type': 'text/csv',
              'content-disposition': "attachment; filename*=UTF-8''contacts.csv",
            },
          })
        : undefined,
    );
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderEngine({ path: '/settings/contacts', profile: member });
    await screen.findByText('Alice');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    // The export menu: CSV or Excel.
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));
    await screen.findByText('Download successful');
    const exported = calls.find((c) => c.path === '/api/v1/test/contacts/export');
    expect(exported).toBeDefined();
    expect(exported?.query.has('fields')).toBe(false);
  });
});
