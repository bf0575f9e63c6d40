import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../../AppProviders.tsx';
import { i18n, initI18n } from '../../i18n/i18n.ts';
import { queryClient } from '../../providers/queryClient.ts';
import { SessionsPage, type Session } from './SessionsPage.tsx';

// The browser's side of GET/DELETE v1/user/sessions (the server's is tests/integration/auth-sessions.test.ts).

let sessions: Session[] = [];
const deleted: string[] = [];

function stubApi() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0]!;
      const method = init?.method ?? 'GET';
      let data: unknown = null;
      if (method === 'GET' && path === '/api/v1/user/sessions') data = sessions;
      else if (method === 'DELETE' && path.startsWith('/api/v1/user/sessions/')) {
        const id = path.split('/').pop()!;
        deleted.push(id);
        sessions = sessions.filter((s) => s.id !== id);
      } else {
        return new Response(JSON.stringify({ code: 404, message: 'Not found', data: null }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        });
      }
      return new Response(JSON.stringify({ code: 200, message: 'OK', data }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

const at = '2026-11-20T08:00:00.000Z';
beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  deleted.length = 0;
  sessions = [
    { id: '5', created_at: at, last_seen_at: at, ip: '10.0.0.9', user_agent: 'Phone Safari', current: false },
    { id: '4', created_at: at, last_seen_at: at, ip: '10.0.0.8', user_agent: 'Desk Chrome', current: true },
  ];
  stubApi();
});
afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

const renderPage = () =>
  render(
    <MemoryRouter>
      <AppProviders client={queryClient}>
        <SessionsPage />
      </AppProviders>
    </MemoryRouter>,
  );

it('lists the sessions, the current one first and marked, and ends another one', async () => {
  renderPage();
  const list = await screen.findByRole('list', { name: 'Signed-in devices' });
  const items = await within(list).findAllByRole('listitem');
  expect(items[0]?.textContent).toContain('Desk Chrome');
  expect(items[0]?.textContent).toContain('This device');
  expect(items[1]?.textContent).toContain('Phone Safari');
  expect(items[1]?.textContent).toContain('Address: 10.0.0.9');
  // Only the other session can be ended from here (the current one signs out from the menu).
  expect(within(items[0]!).queryByRole('button')).toBeNull();

  await userEvent.click(within(items[1]!).getByRole('button', { name: 'End session: Phone Safari' }));
  expect(await screen.findByText('Session ended.')).toBeTruthy();
  expect(deleted).toEqual(['5']);
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  expect(screen.getByText('No other sessions.')).toBeTruthy();
});

it('speaks Chinese under zh-CN', async () => {
  await i18n.changeLanguage('zh-CN');
  renderPage();
  expect(await screen.findByRole('heading', { name: '已登录的设备' })).toBeTruthy();
  expect(await screen.findByText('本设备')).toBeTruthy();
  expect(screen.getByRole('button', { name: '结束会话: Phone Safari' })).toBeTruthy();
});
