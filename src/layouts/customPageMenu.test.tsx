import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMessages } from '../../locales/additions.ts';
import { definePage, pageLabels } from '../../resources/define-page.ts';
import { settingsMenu } from '../../schemas/permissions.ts';
import { initI18n } from '../i18n/i18n.ts';
import { STAFF_INCLUDE, profileKey } from '../providers/profile.ts';
import { permissionNodes } from '../pages/people/permissionTree.ts';
import { SettingsMenu } from './SettingsMenu.tsx';

/** Issue 35 item 11: a module's custom page in the menu (for holders of its name only) and the role tree. */
const report = definePage({
  name: 'sales_report',
  path: 'sales-report',
  permission: 'shop.sales_report',
  menu: { icon: 'Assessment', order: 20 },
  labels: { en: 'Sales report', 'zh-CN': '销售报表' },
});

/** The menu as a staff member whose one role holds `held` sees it (the profile the menu filters by). */
function renderMenu(held: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(profileKey(STAFF_INCLUDE), {
    id: '1',
    username: 'clerk',
    staff: { is_admin: 0, roles: [{ permissions: { menu_ids: held } }] },
  });
  const items = settingsMenu([], undefined, [report]);
  return render(
    <MemoryRouter initialEntries={['/settings/sales-report']}>
      <QueryClientProvider client={client}>
        <nav aria-label="menu">
          <SettingsMenu collapsed={false} items={items} />
        </nav>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe('a custom page in the menu', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initI18n('en');
    addMessages('en', { app: { ...pageLabels([report], 'en'), menu: { shop: 'Shop' } } });
    // Nothing else the menu asks for (its pinned views) answers here.
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 401 }));
  });
  afterAll(() => vi.unstubAllGlobals());

  it('is a link to its path under its group for a holder of its name, marked as the current page', async () => {
    renderMenu(['shop', 'shop.sales_report']);
    const nav = screen.getByRole('navigation', { name: 'menu' });
    const link = await within(nav).findByRole('link', { name: 'Sales report' });
    expect(link.getAttribute('href')).toBe('/settings/sales-report');
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByText('Shop')).toBeTruthy();
  });

  it('is absent for a caller without its name', () => {
    renderMenu(['shop']);
    const nav = screen.getByRole('navigation', { name: 'menu' });
    expect(within(nav).queryByRole('link', { name: 'Sales report' })).toBeNull();
  });

  it('is a node of the role tree with no actions, under its group', () => {
    const nodes = permissionNodes(settingsMenu([], undefined, [report]));
    const shop = nodes.find((n) => n.name === 'shop');
    expect(shop?.title).toBe('app.menu.shop');
    expect(shop?.children).toEqual([
      { name: 'shop.sales_report', title: 'app.pages.sales_report', children: [] },
    ]);
  });
});
