import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preferenceStore } from '../data/preferenceStore.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import type { FakeCall } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

const rows = [
  {
    id: '1',
    name: 'Alice',
    email: 'alice@example.com',
    phone: '13812345678',
    gender: 'female',
    state: true,
    role_ids: [],
  },
  { id: '2', name: 'Bob', email: 'bob@example.com', phone: null, gender: 'male', state: false, role_ids: [] },
];

function api(handler?: (call: FakeCall) => unknown) {
  return fakeFetch((call) => {
    const custom = handler?.(call);
    if (custom) return custom as { body: unknown };
    if (call.path === '/api/v1/test/contacts' && call.method === 'GET') {
      const search = call.query.get('search') ?? '';
      return { body: listEnvelope(search.includes('name:') ? rows.slice(0, 1) : rows) };
    }
    return { body: listEnvelope([]) };
  });
}

vi.setConfig({ testTimeout: 60_000 });

afterEach(() => vi.unstubAllGlobals());

describe('ResourceList', () => {
  it('renders the list columns and rows, masking masked fields', async () => {
    api();
    await renderEngine({ path: '/settings/contacts' });
    expect(await screen.findByText('Alice')).toBeTruthy();
    expect(screen.getByText('Bob')).toBeTruthy();
    for (const header of ['Name', 'Email', 'Phone', 'Gender', 'State']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    }
    expect(screen.getByText('a***e@example.com')).toBeTruthy();
    expect(screen.getByText('138****5678')).toBeTruthy();
    expect(screen.queryByText('alice@example.com')).toBeNull();
  });

  it('says "about" when the server reports an estimated total, and the exact range otherwise', async () => {
    api((call) => {
      if (call.path !== '/api/v1/test/contacts') return undefined;
      const body = listEnvelope(rows, 120_000);
      const isFiltered = (call.query.get('search') ?? '') !== '';
      if (!isFiltered) Object.assign(body.data.meta.pagination, { total_is_estimate: true });
      return { body: isFiltered ? listEnvelope(rows.slice(0, 1)) : body };
    });
    await renderEngine({ path: '/settings/contacts' });
    expect(await screen.findByText('1-15 of about 120,000')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Ali');
    expect(await screen.findByText('1-1 of 1', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('sends a filter as search/searchFields with the field default condition', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Ali');
    await waitFor(() => expect(screen.queryByText('Bob')).toBeNull(), { timeout: 5000 });
    const last = calls.filter((c) => c.path === '/api/v1/test/contacts').at(-1);
    expect(last?.query.get('search')).toBe('name:Ali');
    expect(last?.query.get('searchFields')).toBe('name:like');
  });

  it('has a search box sending q, and escapes separators in filter values', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    // The search box is named, not only a placeholder.
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'ali;x');
    await waitFor(
      () => {
        const last = calls.filter((c) => c.path === '/api/v1/test/contacts').at(-1);
        expect(last?.query.get('q')).toBe('ali;x');
      },
      { timeout: 5000 },
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Eve:C;S');
    await waitFor(
      () => {
        const last = calls.filter((c) => c.path === '/api/v1/test/contacts').at(-1);
        expect(last?.query.get('search')).toBe('name:Eve\\:C\\;S');
        expect(last?.query.get('q')).toBe('ali;x');
      },
      { timeout: 5000 },
    );
  });

  it('renders an added filter (its input loaded on demand) with the focus in it, and filters by it', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    // Not shown until added: no input for it on the page.
    expect(screen.queryByRole('spinbutton', { name: 'Age' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Age' }));
    const age = await screen.findByRole('spinbutton', { name: 'Age' });
    await waitFor(() => expect(document.activeElement).toBe(age));
    await userEvent.keyboard('30');
    await waitFor(
      () => {
        const last = calls.filter((c) => c.path === '/api/v1/test/contacts').at(-1);
        expect(last?.query.get('search')).toBe('age:30');
      },
      { timeout: 5000 },
    );
    // A relation's autocomplete, another kind loaded on demand, gets the focus too.
    await userEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Department' }));
    const department = await screen.findByRole('combobox', { name: 'Department' });
    await waitFor(() => expect(document.activeElement).toBe(department));
  });

  it('disables the selected rows with one bulk call', async () => {
    const calls = api((call) =>
      call.method === 'PATCH' ? { body: { code: 200, data: ['1', '2'] } } : undefined,
    );
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Disable' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/api/v1/test/contacts');
    expect(patch?.query.get('ids')).toBe('1,2');
    expect(patch?.body).toEqual({ state: false });
  });

  it('shows the bulk buttons once a row is selected, and runs them from the keyboard', async () => {
    const calls = api((call) =>
      call.method === 'DELETE' ? { body: { code: 200, data: ['1'] } } : undefined,
    );
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    // Nothing selected: no bulk button is rendered (they load with the first selection).
    expect(screen.queryByRole('button', { name: 'Enable' })).toBeNull();
    const alice = screen.getByText('Alice').closest('tr') as HTMLElement;
    const select = within(alice).getByRole('checkbox');
    select.focus();
    await userEvent.keyboard(' ');
    const enable = await screen.findByRole('button', { name: 'Enable' });
    expect(screen.getByRole('button', { name: 'Disable' })).toBeTruthy();
    const toolbar = enable.closest('[data-test="bulk-actions-toolbar"]') as HTMLElement;
    const remove = within(toolbar).getByRole('button', { name: 'Delete' });
    remove.focus();
    await userEvent.keyboard('{Enter}');
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Confirm' })
      .focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')?.query.get('ids')).toBe('1');
  });

  it('sorts on a sortable column', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    await userEvent.click(screen.getByRole('button', { name: 'Sort by name ascending' }));
    expect(screen.queryByRole('button', { name: /Sort by email/ })).toBeNull();
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/api/v1/test/contacts').at(-1);
      expect(last?.query.get('orderBy')).toBe('name');
    });
  });

  it('asks "Confirm to delete {name}?" before deleting', async () => {
    const calls = api((call) => (call.method === 'DELETE' ? { body: { code: 200, data: null } } : undefined));
    await renderEngine({ path: '/settings/contacts' });
    const row = (await screen.findByText('Alice')).closest('tr') as HTMLElement;
    await userEvent.click(await within(row).findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Confirm to delete Alice?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/test/contacts/1')).toBe(true),
    );
  });

  it('shows the empty state when there is no record', async () => {
    fakeFetch(() => ({ body: listEnvelope([]) }));
    await renderEngine({ path: '/settings/contacts' });
    expect(await screen.findByText('No records yet')).toBeTruthy();
  });

  it('exports with the current filters and sort', async () => {
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
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderEngine({
      path: '/settings/contacts?filter=%7B%22name%22%3A%22Ali%22%7D&sort=name&order=ASC',
    });
    await screen.findByText('Alice');
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    // The export menu: CSV or Excel.
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));
    await screen.findByText('Download successful');
    const exported = calls.find((c) => c.path === '/api/v1/test/contacts/export');
    expect(exported?.query.get('search')).toBe('name:Ali');
    expect(exported?.query.get('orderBy')).toBe('name');
    expect(exported?.query.has('page')).toBe(false);
    expect(click).toHaveBeenCalledOnce();
  });
});

describe('ResourceList import (its dialog loaded on demand)', () => {
  it('opens the import dialog, checks the chosen file with a dry run, and closes', async () => {
    const calls = api((call) =>
      call.path === '/api/v1/test/contacts/import'
        ? { body: { code: 200, data: { total: 2, valid: 2, errors: [] } } }
        : undefined,
    );
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: /^Import / });
    const csv = new File(['Name\nAlice\nBob\n'], 'contacts.csv', { type: 'text/csv' });
    await userEvent.upload(within(dialog).getByLabelText('Choose a CSV file'), csv);
    expect(await within(dialog).findByText('2 of 2 rows are valid')).toBeTruthy();
    expect(within(dialog).getByText('Every row is valid.')).toBeTruthy();
    const dryRun = calls.find((c) => c.path === '/api/v1/test/contacts/import');
    expect(dryRun?.method).toBe('POST');
    expect(dryRun?.query.get('dry_run')).toBe('1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('ResourceList permissions', () => {
  it('hides create, export, import and delete from a user without those permissions', async () => {
    fakeFetch(() => ({ body: listEnvelope(rows) }));
    const reader = {
      id: '2',
      is_admin: 0,
      roles: [{ id: '1', name: 'r', permissions: { menu_ids: ['test.contacts'] } }],
    };
    await renderEngine({
      path: '/settings/contacts',
      profile: { id: '2', username: 'reader', staff: reader },
    });
    await screen.findByText('Alice');
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    // The same list for an administrator has them (so the assertions above can fail).
    cleanup();
    await renderEngine({ path: '/settings/contacts' });
    expect(await screen.findByRole('button', { name: 'Export' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create' })).toBeTruthy();
  });
});

describe('ResourceList table preferences', () => {
  afterEach(() => localStorage.clear());

  const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent ?? '');

  it('remembers the chosen columns and the row density of a list across a reload', async () => {
    api();
    await renderEngine({ path: '/settings/contacts', store: preferenceStore() });
    await screen.findByText('Alice');
    expect(headers()).toEqual(expect.arrayContaining(['Email', 'Phone']));
    const compact = screen.getByRole('button', { name: 'Compact rows' });
    expect(compact.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('cell', { name: 'Alice' }).className).toContain('MuiTableCell-sizeSmall');

    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(await screen.findByRole('switch', { name: 'Email' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(headers()).not.toContain('Email'));
    await userEvent.click(compact);
    expect(compact.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('cell', { name: 'Alice' }).className).toContain('MuiTableCell-sizeMedium');

    // A reload: a new store over the same browser storage.
    cleanup();
    await renderEngine({ path: '/settings/contacts', store: preferenceStore() });
    await screen.findByText('Alice');
    expect(headers()).not.toContain('Email');
    expect(headers()).toContain('Phone');
    expect(screen.getByRole('button', { name: 'Compact rows' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('cell', { name: 'Alice' }).className).toContain('MuiTableCell-sizeMedium');
    expect(screen.queryByText('a***e@example.com')).toBeNull();
  });

  it('opens the column chooser from the keyboard, hides a column and gives the focus back', async () => {
    api();
    await renderEngine({ path: '/settings/contacts', store: preferenceStore() });
    await screen.findByText('Alice');
    const columns = screen.getByRole('button', { name: 'Columns' });
    columns.focus();
    await userEvent.keyboard('{Enter}');
    // The popover loads on the first use; its switches name the columns.
    const phone = await screen.findByRole('switch', { name: 'Phone' });
    expect(screen.getByRole('switch', { name: 'Name' })).toBeTruthy();
    phone.focus();
    await userEvent.keyboard(' ');
    expect((phone as HTMLInputElement).checked).toBe(false);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('switch', { name: 'Phone' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(columns));
    expect(headers()).not.toContain('Phone');
    expect(headers()).toContain('Email');
  });

  it('keeps each list its own choices, and list state (filters) in memory only', async () => {
    api((call) =>
      call.path === '/api/v1/test/kits'
        ? { body: listEnvelope([{ id: '7', name: 'Kit seven' }]) }
        : undefined,
    );
    await renderEngine({ path: '/settings/contacts', store: preferenceStore() });
    await screen.findByText('Alice');
    await userEvent.click(screen.getByRole('button', { name: 'Compact rows' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Ali');
    await waitFor(() => expect(screen.queryByText('Bob')).toBeNull(), { timeout: 5000 });
    cleanup();
    await renderEngine({ path: '/settings/kits', store: preferenceStore() });
    await screen.findByText('Kit seven');
    expect(screen.getByRole('button', { name: 'Compact rows' }).getAttribute('aria-pressed')).toBe('true');
    cleanup();
    await renderEngine({ path: '/settings/contacts', store: preferenceStore() });
    // The filter typed before the reload is gone (memory), the density stays (localStorage).
    expect(await screen.findByText('Bob')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Compact rows' }).getAttribute('aria-pressed')).toBe('false');
  });
});

describe('ResourceList on a phone', () => {
  /** A 390px wide screen: MUI's `down('sm')` query matches (jsdom has no matchMedia of its own). */
  const stubPhone = () =>
    vi.stubGlobal('matchMedia', (media: string) => ({
      media,
      matches: /max-width:\s*599\.95px/.test(media),
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));

  it('shows one card per record with its fields and actions, and no table', async () => {
    stubPhone();
    api();
    await renderEngine({ path: '/settings/contacts' });
    const card = (await screen.findByRole('heading', { name: 'Alice', level: 2 })).closest(
      'li',
    ) as HTMLElement;
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(2);
    expect(within(card).getByText('Email')).toBeTruthy();
    expect(within(card).getByText('a***e@example.com')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Alice' }).getAttribute('href')).toBe(
      '/settings/contacts/1',
    );
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeTruthy();
    // No column chooser or density toggle for cards.
    expect(screen.queryByRole('button', { name: 'Compact rows' })).toBeNull();
  });

  it('selects cards for a bulk action', async () => {
    stubPhone();
    const calls = api((call) => (call.method === 'PATCH' ? { body: { code: 200, data: ['2'] } } : undefined));
    await renderEngine({ path: '/settings/contacts' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Bob' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.query.get('ids')).toBe('2');
    expect(patch?.body).toEqual({ state: true });
  });

  it('says when a filter finds nothing', async () => {
    stubPhone();
    api((call) =>
      call.path === '/api/v1/test/contacts' && call.query.get('q') ? { body: listEnvelope([]) } : undefined,
    );
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByRole('heading', { name: 'Alice', level: 2 });
    await userEvent.type(screen.getByPlaceholderText('Search'), 'zzz');
    // A filter waits for its debounce and a round trip.
    expect(
      await screen.findByText(/No Contacts found using the current filters/, {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();
  });
});
