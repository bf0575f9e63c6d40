import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope, type FakeCall } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';
import type { SavedView } from './savedViews.ts';

// The browser's side of v1/user/views (the server's is tests/integration/engine-saved-views.test.ts).
const rows = [
  { id: '1', name: 'Alice', email: null, phone: null, gender: 'female', state: true, role_ids: [] },
  { id: '2', name: 'Bob', email: null, phone: null, gender: 'male', state: false, role_ids: [] },
];

const view = (over: Partial<SavedView>): SavedView => ({
  id: '7',
  resource: 'contacts',
  name: 'Bobs',
  query: { search: 'name:Bob', searchFields: 'name:like' },
  columns: [],
  density: 'compact',
  shared: 'private',
  role_ids: [],
  pinned: false,
  is_default: false,
  owner_id: '1',
  can_edit: true,
  ...over,
});

function api(views: SavedView[]) {
  const answer = (data: unknown, status = 200) => ({ status, body: { code: 200, data } });
  return fakeFetch((call: FakeCall) => {
    if (call.path === '/api/v1/user/views' && call.method === 'GET') return answer(views);
    if (call.path === '/api/v1/user/views' && call.method === 'POST')
      return answer({ ...view({}), ...(call.body as object), id: '8' }, 201);
    if (call.path.startsWith('/api/v1/user/views/') && call.method === 'DELETE') return answer(null);
    if (call.path === '/api/v1/user/views/counts') return answer({});
    if (call.path === '/api/v1/test/contacts' && call.method === 'GET') {
      const search = call.query.get('search') ?? '';
      return { body: listEnvelope(search.includes('name:Bob') ? rows.slice(1) : rows) };
    }
    return { body: listEnvelope([]) };
  });
}
const listCalls = (calls: FakeCall[]) => calls.filter((c) => c.path === '/api/v1/test/contacts');

// Typing into MUI dialogs is slow on a loaded machine: a generous budget, never a timed assertion.
vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

describe('ViewsButton', () => {
  it('saves the current filters under a name, shared with everyone, by keyboard', async () => {
    const calls = api([]);
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Ali');
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('search')).toBe('name:Ali'), {
      timeout: 5000,
    });

    screen.getByRole('button', { name: 'Views' }).focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Save current view…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Alis');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Everyone' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Pin to the menu with its count' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')?.body;
    expect(body).toMatchObject({
      resource: 'contacts',
      name: 'Alis',
      shared: 'everyone',
      pinned: true,
      query: { search: 'name:Ali', searchFields: 'name:like' },
      density: 'compact',
    });
    expect(await screen.findByText('Saved the view “Alis”')).toBeTruthy();
  });

  it('asks for a role when sharing with roles', async () => {
    api([]);
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Bob');
    await userEvent.click(screen.getByRole('button', { name: 'Views' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Save current view…' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Team');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Some roles' }));
    expect(within(dialog).getByRole('group', { name: 'Roles' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Choose at least one role');
  });

  it('applies a view chosen from the menu to the list', async () => {
    const calls = api([view({})]);
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    await userEvent.click(screen.getByRole('button', { name: 'Views' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Bobs/ }));
    await waitFor(() => expect(screen.queryByText('Alice')).toBeNull(), { timeout: 5000 });
    expect(listCalls(calls).at(-1)?.query.get('search')).toBe('name:Bob');
    expect(screen.getByRole('button', { name: 'View: Bobs' })).toBeTruthy();
  });

  it("opens the list with the user's default view when the URL has no query", async () => {
    const calls = api([view({ is_default: true })]);
    await renderEngine({ path: '/settings/contacts' });
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('search')).toBe('name:Bob'), {
      timeout: 5000,
    });
    expect(await screen.findByRole('button', { name: 'View: Bobs' })).toBeTruthy();
  });

  it('deletes the view applied last after a confirmation', async () => {
    const calls = api([view({})]);
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    await userEvent.click(screen.getByRole('button', { name: 'Views' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Bobs/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'View: Bobs' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete…' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this view?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: /Confirm/ }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/user/views/7')).toBe(true),
    );
  });
});
