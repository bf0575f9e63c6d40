import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { AdminContext, TestMemoryRouter, memoryStore } from 'react-admin';
import type { DataProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../locales/languages.ts';
import { fakeFetch } from '../engine/testing/fakeFetch.ts';
import { getI18nextProvider, i18n, initI18n, loadAdminMessages } from '../i18n/i18n.ts';
import { STAFF_INCLUDE, profileKey, type Profile } from '../providers/profile.ts';
import { PaletteButton } from './PaletteButton.tsx';

const ADMIN: Profile = { id: '1', username: 'admin', staff: { id: '1', is_admin: 1, roles: [] } };
const HITS = [
  { resource: 'staff', id: '7', label: 'Zebulon Li', sublabel: '13800138001' },
  { resource: 'departments', id: '3', label: 'Zebulon North', sublabel: null },
];

/** Records that match a page's name too. */
const NAMESAKES = [{ resource: 'departments', id: '9', label: 'Departments archive', sublabel: null }];

async function renderPalette(locale: Locale = 'en') {
  await initI18n(locale);
  await loadAdminMessages();
  await i18n.changeLanguage(locale);
  Cookies.set('access_token', 'test-token');
  const calls = fakeFetch((call) =>
    call.path === '/api/v1/search'
      ? {
          body: {
            code: 200,
            data:
              call.query.get('q') === 'zeb' ? HITS : call.query.get('q') === 'Departments' ? NAMESAKES : [],
          },
        }
      : { status: 404, body: { code: 404, message: 'Not found', data: null } },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(profileKey(STAFF_INCLUDE), ADMIN);
  let location = '';
  render(
    <TestMemoryRouter initialEntries={['/settings/staff']} locationCallback={(l) => (location = l.pathname)}>
      <AdminContext
        queryClient={queryClient}
        dataProvider={{} as DataProvider}
        i18nProvider={getI18nextProvider()}
        store={memoryStore()}
      >
        <button type="button">Before</button>
        <PaletteButton />
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { calls, where: () => location };
}

const ctrlK = () => fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
const selected = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option', { selected: true })
    .map((o) => o.textContent);

describe('CommandPalette', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Cookies.remove('access_token');
  });

  it('opens with Ctrl-K as a combobox over a listbox of pages and actions', async () => {
    await renderPalette();
    ctrlK();
    const box = await screen.findByRole('combobox', { name: 'Search pages, actions and records' });
    expect(box).toHaveProperty('ownerDocument.activeElement', box);
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(screen.getByRole('group', { name: 'Pages' })).toBeTruthy();
    const actions = within(screen.getByRole('group', { name: 'Actions' }));
    for (const name of ['New staff member', 'Switch language', 'Switch theme', 'Sign out'])
      expect(actions.getByRole('option', { name })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Staff' })).toBeTruthy();
  });

  it('finds records as the user types, and Enter opens the one the arrows chose', async () => {
    const { calls, where } = await renderPalette();
    fireEvent.click(screen.getByRole('button', { name: 'Search and commands (Ctrl+K)' }));
    const box = await screen.findByRole('combobox');
    fireEvent.change(box, { target: { value: 'z' } });
    fireEvent.change(box, { target: { value: 'ze' } });
    fireEvent.change(box, { target: { value: 'zeb' } });
    const records = within(await screen.findByRole('group', { name: 'Records' }));
    expect(records.getByRole('option', { name: /Zebulon Li/ }).textContent).toContain('Staff member');
    // Debounced: one request, for the last text.
    expect(calls.filter((c) => c.path === '/api/v1/search').map((c) => c.query.get('q'))).toEqual(['zeb']);
    expect(selected()[0]).toContain('Zebulon Li');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(selected()[0]).toContain('Zebulon North');
    expect(box.getAttribute('aria-activedescendant')).toBe(
      within(screen.getByRole('listbox')).getByRole('option', { selected: true }).id,
    );
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(where()).toBe('/settings/staff/7'));
  });

  it('opens a page by name', async () => {
    const { where } = await renderPalette();
    ctrlK();
    const box = await screen.findByRole('combobox');
    fireEvent.change(box, { target: { value: 'depart' } });
    await waitFor(() => expect(selected()[0]).toBe('Departments'));
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(where()).toBe('/settings/departments'));
  });

  it('a page named exactly as typed stays chosen when records matching the word arrive', async () => {
    const { calls, where } = await renderPalette();
    ctrlK();
    const box = await screen.findByRole('combobox');
    fireEvent.change(box, { target: { value: 'Departments' } });
    expect(selected()).toEqual(['Departments']);
    const records = within(await screen.findByRole('group', { name: 'Records' }));
    expect(records.getByRole('option', { name: /Departments archive/ })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/v1/search').map((c) => c.query.get('q'))).toEqual([
      'Departments',
    ]);
    expect(selected()).toEqual(['Departments']);
    // The arrows still move from it, and back.
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(selected()).not.toEqual(['Departments']);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(selected()).toEqual(['Departments']);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(where()).toBe('/settings/departments'));
  });

  it('Escape closes it and gives focus back where it was', async () => {
    await renderPalette();
    const before = screen.getByRole('button', { name: 'Before' });
    act(() => before.focus());
    ctrlK();
    const box = await screen.findByRole('combobox');
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('combobox')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(before));
  });

  it('speaks Chinese under zh-CN', async () => {
    await renderPalette('zh-CN');
    ctrlK();
    expect(await screen.findByRole('combobox', { name: '搜索页面、操作和记录' })).toBeTruthy();
    for (const name of ['新建员工', '切换语言', '切换主题', '退出登录'])
      expect(screen.getByRole('option', { name })).toBeTruthy();
  });
});
