import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { initI18n } from '../i18n/i18n.ts';
import { SettingsMenu } from './SettingsMenu.tsx';

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server's answer for a staff member holding the User group with staff and roles. */
const MENUS = [
  {
    name: 'system.users',
    title: 'User',
    title_key: 'app.menu.users',
    icon: 'People',
    path: null,
    disabled: false,
    children: [
      {
        name: 'system.users.staff',
        title: 'Staff',
        title_key: 'app.menu.staff',
        icon: 'Badge',
        path: '/settings/staff',
        disabled: false,
      },
      {
        name: 'system.users.roles',
        title: 'Roles',
        title_key: 'app.menu.roles',
        icon: null,
        path: '/settings/roles',
        disabled: true,
      },
    ],
  },
];

function renderMenu() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={['/settings/staff']}>
      <QueryClientProvider client={client}>
        <nav aria-label="menu">
          <SettingsMenu collapsed={false} />
        </nav>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe('SettingsMenu', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initI18n('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renders the tree GET v1/system/menus returns, titles translated from their keys', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/v1/system/menus')) return reply({ code: 200, data: MENUS });
      return reply({ code: 401, message: 'no', data: null }, 401);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderMenu();
    const nav = screen.getByRole('navigation', { name: 'menu' });
    expect(await within(nav).findByRole('link', { name: 'Staff' })).toBeTruthy();
    expect(within(nav).getByText('User')).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Roles' }).getAttribute('aria-disabled')).toBe('true');
    expect(within(nav).getAllByRole('link')).toHaveLength(2);
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/api/v1/system/menus'))).toBe(true);
  });
});
