import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from './AppProviders.tsx';
import { i18n, initI18n } from './i18n/i18n.ts';
import type { Profile } from './providers/profile.ts';
import { queryClient } from './providers/queryClient.ts';
import { AppRoutes } from './AppRoutes.tsx';

interface Backend {
  status?: string;
  profile?: Profile | null;
}

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeApi({ status = 'ready', profile = null }: Backend) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/v1') {
      return reply({
        code: 200,
        data: { status, config: { site_name: 'Acme Admin', languages: ['zh-CN', 'en'] } },
      });
    }
    if (url.startsWith('/api/v1/user/profile')) {
      return profile
        ? reply({ code: 200, data: profile })
        : reply({ code: 401, message: 'no', data: null }, 401);
    }
    return reply({ code: 404, message: 'Not found', data: null }, 404);
  });
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** A wide screen, so the settings menu is a permanent drawer (jsdom has no matchMedia of its own). */
function stubWideScreen() {
  vi.stubGlobal('matchMedia', (media: string) => ({
    media,
    matches: media.includes('min-width:992px'),
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

function renderAt(path: string, backend: Backend = {}) {
  vi.stubGlobal('fetch', fakeApi(backend));
  if (backend.profile) Cookies.set('access_token', 'tok', { path: '/' });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={queryClient}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

const staff = (menuIds: string[], isAdmin = 0): Profile => ({
  id: '1',
  username: 'li',
  name: 'Li Lei',
  staff: { id: '9', is_admin: isAdmin, roles: [{ id: '1', name: 'r', permissions: { menu_ids: menuIds } }] },
});

describe('app routes and guard', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await initI18n('zh-CN');
  });
  beforeEach(async () => {
    await i18n.changeLanguage('zh-CN');
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
    Cookies.remove('access_token', { path: '/' });
  });

  it('sends an anonymous visitor of a staff page to /login with the intended address', async () => {
    renderAt('/settings/staff?page=2');
    expect(await screen.findByRole('heading', { name: '登录' }, { timeout: 25_000 })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login?href=%2Fsettings%2Fstaff%3Fpage%3D2');
  });

  it('shows "Page not found" for unknown paths', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: '页面不存在' })).toBeTruthy();
  });

  it('sends everyone to the server error page when the system is not ready', async () => {
    renderAt('/login', { status: 'maintenance' });
    expect(await screen.findByRole('heading', { name: '服务器错误' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/error/500');
  });

  it('shows "Unauthenticated" to a signed-in user who is not staff', async () => {
    renderAt('/dashboard', { profile: { id: '2', username: 'guest', staff: null } });
    expect(await screen.findByRole('heading', { name: '未认证' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/error/403');
  });

  it('lets staff into the settings area with a menu filtered by permission', async () => {
    stubWideScreen();
    renderAt('/settings/staff', {
      profile: staff(['system.users', 'system.users.staff', 'system.system.logs']),
    });
    const nav = await screen.findByRole('navigation', { name: '设置导航' }, { timeout: 10_000 });
    expect(within(nav).getByRole('link', { name: '员工' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).queryByRole('link', { name: '角色' })).toBeNull();
    // system.system.logs without its group system.system stays hidden.
    expect(within(nav).queryByRole('link', { name: '系统日志' })).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/settings/staff');
  });

  it('shows "No Permission" on general settings without system.settings', async () => {
    renderAt('/settings', { profile: staff(['system.users']) });
    expect(await screen.findByRole('heading', { name: '没有权限' }, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows an administrator every menu entry and the general settings page', async () => {
    stubWideScreen();
    renderAt('/settings', { profile: staff([], 1) });
    const nav = await screen.findByRole('navigation', { name: '设置导航' }, { timeout: 10_000 });
    expect(within(nav).getAllByRole('link')).toHaveLength(13);
    // The page itself loads on first visit (a lazy chunk).
    expect(await screen.findByRole('heading', { name: '常规设置' }, { timeout: 10_000 })).toBeTruthy();
  });

  it('titles the signed-out pages "<page> - <site name>"', async () => {
    renderAt('/login');
    await waitFor(() => expect(document.title).toBe('登录 - Acme Admin'));
  });

  it('titles the reset page after its heading', async () => {
    renderAt('/reset');
    await screen.findByRole('heading', { name: '重置密码' }, { timeout: 10_000 });
    await waitFor(() => expect(document.title).toBe('重置密码 - Acme Admin'));
  });
});

describe('header tools', () => {
  beforeAll(async () => {
    await initI18n('zh-CN');
  });
  afterEach(async () => {
    queryClient.clear();
    vi.unstubAllGlobals();
    await i18n.changeLanguage('zh-CN');
  });

  it('switches the language and remembers it', async () => {
    const user = userEvent.setup();
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: '登录' })).toBeTruthy();
    // The sign-in card says whose back office it is.
    expect(await screen.findByText('Acme Admin')).toBeTruthy();
    // The accessible name starts with the visible text (the current language), then says what it does.
    await user.click(screen.getByRole('button', { name: '简体中文，切换语言' }));
    // The menu is a chunk of its own, loaded on first use.
    await user.click(await screen.findByRole('menuitem', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'English, change language' })).toBeTruthy();
    expect(localStorage.getItem('locale')).toBe('en');
  });

  it('toggles the theme and keeps the choice in localStorage', async () => {
    const user = userEvent.setup();
    renderAt('/login');
    await user.click(await screen.findByRole('button', { name: '切换到深色模式' }));
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(screen.getByRole('button', { name: '切换到浅色模式' })).toBeTruthy();
  });
});

describe('settings layout', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await initI18n('zh-CN');
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
    Cookies.remove('access_token', { path: '/' });
  });

  it('collapses the side menu to icons and remembers it', async () => {
    stubWideScreen();
    const user = userEvent.setup();
    renderAt('/settings/roles', { profile: staff([], 1) });
    const nav = await screen.findByRole('navigation', { name: '设置导航' }, { timeout: 10_000 });
    expect(within(nav).getByText('角色')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '收起菜单' }));
    expect(localStorage.getItem('sidebar')).toBe('collapsed');
    expect(within(nav).queryByText('角色')).toBeNull();
    // Still reachable by its accessible name when only the icon shows.
    expect(within(nav).getByRole('link', { name: '角色' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '展开菜单' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('on a narrow screen, opens the menu as a drawer from the button and closes it on choosing a page', async () => {
    const user = userEvent.setup();
    renderAt('/settings/roles', { profile: staff([], 1) });
    const toggle = await screen.findByRole('button', { name: '展开菜单' }, { timeout: 10_000 });
    // No side menu until the button opens it (its drawer's code loads on the way).
    expect(screen.queryByRole('navigation', { name: '设置导航' })).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    const nav = await screen.findByRole('navigation', { name: '设置导航' }, { timeout: 10_000 });
    // The page behind the open drawer is hidden from assistive technology, the button with it.
    expect(toggle.getAttribute('aria-label')).toBe('收起菜单');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(within(nav).getByRole('link', { name: '员工' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/settings/staff'));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: '设置导航' })).toBeNull());
    expect(screen.getByRole('button', { name: '展开菜单' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('closes back to the dashboard', async () => {
    stubWideScreen();
    const user = userEvent.setup();
    renderAt('/settings/roles', { profile: staff([], 1) });
    await user.click(await screen.findByRole('link', { name: '关闭设置' }, { timeout: 10_000 }));
    expect(await screen.findByRole('heading', { name: '仪表盘' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });
});
