import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../../AppProviders.tsx';
import { i18n, initI18n } from '../../i18n/i18n.ts';
import { queryClient } from '../../providers/queryClient.ts';
import { removeToken, setToken } from '../../providers/token.ts';
import { TokensPage, type ApiToken } from './TokensPage.tsx';

// The browser's side of v1/user/tokens (the server's is tests/integration/auth-api-tokens.test.ts).

const DEPTS = 'system.users.departments';
let tokens: ApiToken[] = [];
const posted: Array<Record<string, unknown>> = [];
const profile = {
  id: '7',
  username: 'li',
  staff: {
    id: '3',
    is_admin: 0,
    roles: [{ id: '1', name: 'r', permissions: { menu_ids: [DEPTS, `${DEPTS}.create`] } }],
  },
};

function answer(data: unknown, status = 200) {
  return new Response(JSON.stringify({ code: status, message: status === 200 ? 'OK' : 'Not found', data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  tokens = [];
  posted.length = 0;
  setToken('session-token', false);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0]!;
      const method = init?.method ?? 'GET';
      if (method === 'GET' && path === '/api/v1/user/profile') return answer(profile);
      if (method === 'GET' && path === '/api/v1/user/tokens') return answer(tokens);
      if (method === 'POST' && path === '/api/v1/user/tokens') {
        const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
        posted.push(body);
        const made = {
          id: '9',
          name: String(body.name),
          permissions: body.permissions as string[],
          expires_at: String(body.expires_at),
          last_used_at: null,
          created_at: new Date().toISOString(),
        };
        tokens = [made];
        return answer({ ...made, token: 'secret-shown-once' });
      }
      return answer(null, 404);
    }),
  );
});
afterEach(() => {
  queryClient.clear();
  removeToken();
  vi.unstubAllGlobals();
});

it('offers only the permissions the caller holds, creates a token and shows its secret once', async () => {
  render(
    <MemoryRouter>
      <AppProviders client={queryClient}>
        <TokensPage />
      </AppProviders>
    </MemoryRouter>,
  );
  const box = await screen.findByRole('checkbox', { name: DEPTS });
  expect(screen.getByRole('checkbox', { name: `${DEPTS}.create` })).toBeTruthy();
  expect(screen.queryByRole('checkbox', { name: 'system.users.staff' })).toBeNull();

  await userEvent.type(screen.getByRole('textbox', { name: /Name/ }), 'deploy');
  await userEvent.click(box);
  await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
  expect(await screen.findByText('Copy the token now: it is not shown again.')).toBeTruthy();
  expect((screen.getByRole('textbox', { name: 'Token' }) as HTMLInputElement).value).toBe(
    'secret-shown-once',
  );
  expect(posted[0]).toMatchObject({ name: 'deploy', permissions: [DEPTS] });
  const list = screen.getByRole('list', { name: 'API tokens' });
  expect(await within(list).findByText('deploy')).toBeTruthy();
});
