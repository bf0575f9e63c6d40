import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../testing/fakeFetch.ts';
import { contacts } from '../testing/contacts.ts';
import { useAbilities } from './useAbilities.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  Cookies.remove('access_token');
});

function wrapperOf(client: QueryClient) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };
}

describe('useAbilities', () => {
  // The permission list's query once asked the cache for its own key from inside its query function, which
  // waits on itself forever when nothing (the route guard) has loaded the profile before.
  it('loads the profile itself when nothing has cached it yet', async () => {
    Cookies.set('access_token', 'test-token');
    const calls = fakeFetch(() => ({
      body: {
        code: 200,
        data: {
          id: '2',
          username: 'editor',
          staff: {
            id: '2',
            is_admin: 0,
            roles: [
              { id: '1', name: 'r', permissions: { menu_ids: ['test.contacts', 'test.contacts.update'] } },
            ],
          },
        },
      },
    }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { result } = renderHook(() => useAbilities(contacts), { wrapper: wrapperOf(client) });
    await waitFor(() => expect(result.current.update).toBe(true), { timeout: 5000 });
    expect(result.current.delete).toBe(false);
    expect(calls.filter((c) => c.path.endsWith('/v1/user/profile'))).toHaveLength(1);
  });

  it('holds nothing when signed out, without asking the server', async () => {
    const calls = fakeFetch(() => ({ body: { code: 200, data: null } }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { result } = renderHook(() => useAbilities(contacts), { wrapper: wrapperOf(client) });
    await waitFor(() =>
      expect(client.getQueryState(['profile', 'avatar,staff.roles'])?.status).toBe('success'),
    );
    expect(result.current).toEqual({
      create: false,
      update: false,
      delete: false,
      export: false,
      import: false,
    });
    expect(calls).toHaveLength(0);
  });
});
