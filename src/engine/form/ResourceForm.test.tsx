import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ra from '../../../locales/en/ra.json';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

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
});

describe('ResourceCreate', () => {
  it("starts with the schema's defaults (state on, gender unknown)", async () => {
    const calls = fakeFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { code: 200, data: { ...alice, id: '9' } } }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/contacts/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Dora');
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'dora@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ state: true, gender: 'unknown' });
  });

  it('shows "Cannot be empty" from the client-side schema without calling the server', async () => {
    const calls = fakeFetch(() => ({ body: listEnvelope([]) }));
    await renderEngine({ path: '/settings/contacts/create' });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Cannot be empty')).not.toHaveLength(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('words client-side messages in the current language', async () => {
    fakeFetch(() => ({ body: listEnvelope([]) }));
    await renderEngine({ path: '/settings/contacts/create', locale: 'zh-CN' });
    await userEvent.click(await screen.findByRole('button', { name: '保存' }));
    expect(await screen.findAllByText('不能为空')).not.toHaveLength(0);
  });

  it('shows the server 422 message under its input', async () => {
    const calls = fakeFetch((call) =>
      call.method === 'POST'
        ? {
            status: 422,
            body: { code: 422, message: 'Invalid', errors: { email: ['This value is already taken'] } },
          }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/contacts/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Carol');
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'carol@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const email = screen.getByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('This value is already taken')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({ name: 'Carol', email: 'carol@example.com' });
    expect(post?.body).not.toHaveProperty('code');
  });

  it('says "Save successful" and goes on to the new record after creating', async () => {
    const calls = fakeFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { code: 200, data: { id: '5', name: 'Dan' } } }
        : { body: listEnvelope([]) },
    );
    let pathname = '';
    await renderEngine({ path: '/settings/contacts/create', onLocation: (p) => (pathname = p) });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Dan');
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'dan@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save successful')).toBeTruthy();
    await waitFor(() => expect(pathname).toBe('/settings/contacts/5'));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});

describe('ResourceEdit', () => {
  const server = () =>
    fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/contacts/1')
        return { body: { code: 200, data: alice } };
      if (call.method === 'PATCH')
        return { body: { code: 200, data: { ...alice, ...(call.body as object) } } };
      return { body: listEnvelope([]) };
    });

  it('PATCHes only the changed field and shows read-only fields as not editable', async () => {
    const calls = server();
    await renderEngine({ path: '/settings/contacts/1' });
    const name = await screen.findByDisplayValue('Alice');
    expect(screen.getByDisplayValue('C-1').hasAttribute('readonly')).toBe(true);
    await userEvent.clear(name);
    await userEvent.type(name, 'Alicia');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Save successful');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Alicia' });
  });

  it('clears an optional number by sending null (the server stores NULL)', async () => {
    const calls = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/contacts/1')
        return { body: { code: 200, data: { ...alice, age: 30 } } };
      if (call.method === 'PATCH')
        return { body: { code: 200, data: { ...alice, ...(call.body as object) } } };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/contacts/1' });
    await userEvent.clear(await screen.findByDisplayValue('30'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Save successful');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ age: null });
  });

  it('asks before leaving an edit page with unsaved changes (data router), and stays when told to', async () => {
    server();
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    let pathname = '';
    await renderEngine({ path: '/settings/contacts/1', onLocation: (p) => (pathname = p) });
    const name = await screen.findByDisplayValue('Alice');
    await userEvent.clear(name);
    await userEvent.type(name, 'Unsaved');
    await userEvent.click(screen.getByRole('link', { name: 'Show' }));
    await waitFor(() => expect(confirm).toHaveBeenCalledWith(ra.message.unsaved_changes));
    expect(pathname).toBe('/settings/contacts/1');
    expect(screen.getByDisplayValue('Unsaved')).toBeTruthy();
    confirm.mockReturnValue(true);
    await userEvent.click(screen.getByRole('link', { name: 'Show' }));
    await waitFor(() => expect(pathname).toBe('/settings/contacts/1/show'));
  });

  it('restores unsaved changes when the edit page is opened again', async () => {
    server();
    const first = await renderEngine({ path: '/settings/contacts/1' });
    const name = await screen.findByDisplayValue('Alice');
    fireEvent.change(name, { target: { value: 'Draft name' } });
    await waitFor(() => expect(sessionStorage.getItem('engine.draft.contacts.1')).toContain('Draft name'));
    first.unmount();
    await renderEngine({ path: '/settings/contacts/1' });
    expect(await screen.findByDisplayValue('Draft name', {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('Your unsaved changes were restored', {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe('ImportDialog', () => {
  it('lists the dry run row errors and imports only a clean file', async () => {
    let isClean = false;
    const calls = fakeFetch((call) => {
      if (call.path.endsWith('/import') && call.query.get('dry_run') === '1') {
        return {
          body: {
            code: 200,
            data: isClean
              ? { total: 2, valid: 2, errors: [] }
              : { total: 3, valid: 2, errors: [{ row: 3, errors: { email: ['Invalid email'] } }] },
          },
        };
      }
      if (call.path.endsWith('/import')) return { body: { code: 200, data: { created: 2, updated: 0 } } };
      return { body: listEnvelope([alice]) };
    });
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    await userEvent.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog');
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['name,email\n'], 'contacts.csv', { type: 'text/csv' }));
    const table = await within(dialog).findByRole('table', { name: 'Rows with errors' });
    expect(within(table).getByRole('cell', { name: 'Invalid email' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: '3' })).toBeTruthy();
    expect(within(dialog).getByText('2 of 3 rows are valid')).toBeTruthy();
    const importButton = within(dialog).getByRole('button', { name: 'Import' });
    expect(importButton.hasAttribute('disabled')).toBe(true);

    isClean = true;
    await userEvent.upload(input, new File(['name,email\n'], 'fixed.csv', { type: 'text/csv' }));
    await within(dialog).findByText('Every row is valid.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Import successful: 2 created, 0 updated, 0 unchanged')).toBeTruthy();
    const real = calls.filter((c) => c.path === '/api/v1/test/contacts/import' && !c.query.has('dry_run'));
    expect(real).toHaveLength(1);
    expect((real[0]?.body as FormData).get('file')).toBeInstanceOf(File);
  });
});

describe('overrides', () => {
  it('replaces one view and keeps the others generated', async () => {
    fakeFetch(() => ({ body: listEnvelope([alice]) }));
    await renderEngine({
      path: '/settings/contacts',
      overrides: { contacts: { list: () => <p>Hand-written contacts list</p> } },
    });
    expect(await screen.findByText('Hand-written contacts list')).toBeTruthy();
  });
});
