import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, loadAdminMessages } from '../../i18n/i18n.ts';
import { STAFF_INCLUDE, profileKey } from '../../providers/profile.ts';
import { MemoryRouter } from 'react-router-dom';
import { DepartmentTreePage } from './DepartmentTreePage.tsx';

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const node = (id: string, parent: string, title: string, children: unknown[] = [], state = true) => ({
  id,
  parent_id: parent,
  title,
  value: id,
  sort: 0,
  state,
  children,
});
const TREE = [
  node('1', '0', 'HQ', [node('2', '1', 'Sales', [node('3', '2', 'East')])]),
  node('4', '0', 'Lab', [], false),
];

let calls: { method: string; url: string; body: unknown }[] = [];

type Failure = { status: number; body: unknown };

function fakeApi({
  writeFails,
  tree = TREE,
  treeFails,
}: { writeFails?: Failure; tree?: unknown[]; treeFails?: Failure } = {}) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url.startsWith('/api/v1/user/profile'))
      return reply({
        code: 200,
        data: { id: '1', username: 'a', staff: { id: '1', is_admin: 1, roles: [] } },
      });
    if (url.startsWith('/api/v1/user/department/tree'))
      return treeFails ? reply(treeFails.body, treeFails.status) : reply({ code: 200, data: tree });
    if (writeFails) return reply(writeFails.body, writeFails.status);
    return reply({ code: 200, data: { id: '9' } }, method === 'POST' ? 201 : 200);
  });
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The route guard loads the profile before a settings page renders; the page reads it from the cache.
  client.setQueryData(profileKey(STAFF_INCLUDE), { id: '1', username: 'a', staff: { id: '1', is_admin: 1 } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DepartmentTreePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('DepartmentTreePage', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initI18n('en');
    await loadAdminMessages(['settings']);
  });
  beforeEach(() => {
    calls = [];
    Cookies.set('access_token', 'tok', { path: '/' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Cookies.remove('access_token', { path: '/' });
  });

  it('shows the nested tree, disabled departments marked', async () => {
    vi.stubGlobal('fetch', fakeApi());
    renderPage();
    const tree = await screen.findByRole('list', { name: 'Departments' });
    expect(await within(tree).findByText('East')).toBeTruthy();
    const hq = within(tree).getByText('HQ').closest('li')!;
    expect(within(hq).getByText('Sales')).toBeTruthy();
    expect(within(hq).getByText('East')).toBeTruthy();
    expect(within(hq).queryByText('Lab')).toBeNull();
    expect(within(within(tree).getByText('Lab').closest('li')!).getByText('Disabled')).toBeTruthy();
  });

  it('says loading until the tree comes, then that there are no departments', async () => {
    vi.stubGlobal('fetch', fakeApi({ tree: [] }));
    renderPage();
    expect(screen.getByRole('status').textContent).toBe('Loading');
    expect(await screen.findByText('No departments yet')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Departments' })).toBeNull();
  });

  it('shows why the tree did not load instead of an empty tree', async () => {
    const denied = { code: 403, message: 'No permission to view departments', data: null };
    vi.stubGlobal('fetch', fakeApi({ treeFails: { status: 403, body: denied } }));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('No permission to view departments');
    expect(screen.queryByText('No departments yet')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Departments' })).toBeNull();
  });

  it('adds a sub-department under the chosen node', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', fakeApi());
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add sub-department: Sales' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'West');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/v1/user/departments');
    expect(post?.body).toMatchObject({ name: 'West', parent_id: '2', state: true });
    expect(screen.getByText('Save successful')).toBeTruthy();
  });

  it('moves a department and shows the server refusing a cycle under the field', async () => {
    const user = userEvent.setup();
    const cycle = {
      code: 422,
      message: 'Invalid',
      data: null,
      errors: { parent_id: ['Cannot move under itself'] },
    };
    vi.stubGlobal('fetch', fakeApi({ writeFails: { status: 422, body: cycle } }));
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Move: HQ' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: /Superior/ }));
    await user.click(await screen.findByRole('option', { name: /East/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Cannot move under itself')).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/api/v1/user/departments/1');
    expect(patch?.body).toMatchObject({ parent_id: '3' });
    // A department is never offered as its own superior.
    await user.click(within(dialog).getByRole('combobox', { name: /Superior/ }));
    expect(screen.queryByRole('option', { name: /^HQ$/ })).toBeNull();
  });
});
