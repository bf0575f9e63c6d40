import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import Cookies from 'js-cookie';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { initI18n, loadAdminMessages } from '../../../i18n/i18n.ts';
import { STAFF_INCLUDE, profileKey } from '../../../providers/profile.ts';

/** A request the page made, as the fake API saw it. */
export interface SeenCall {
  method: string;
  url: string;
  body: unknown;
}

/** An API answer: the envelope's `data` (200), or a status with a whole body. */
export type FakeAnswer = unknown | { status: number; body: unknown };

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Test helper for the system pages: the API at the fetch boundary answers from `routes` (first matching
 * `METHOD /api/path` prefix wins; the live event stream answers 404, so the page runs without it) and
 * records every call; the page renders signed in as an administrator, in English.
 *
 * @example
 * const calls = fakeApi({ 'GET /api/v1/system/tasks': { data: [task], meta } }); await renderSystemPage(<TasksPage />);
 */
export function fakeApi(routes: Record<string, (call: SeenCall) => FakeAnswer>): SeenCall[] {
  const calls: SeenCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const call = { method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const key = Object.keys(routes)
        .filter((route) => `${method} ${url}`.startsWith(route))
        .sort((a, b) => b.length - a.length)[0];
      if (!key) return reply({ code: 404, message: 'Not found', data: null }, 404);
      const answer = routes[key]!(call);
      if (isStatusAnswer(answer)) return reply(answer.body, answer.status);
      return reply({ code: 200, message: 'ok', data: answer });
    }),
  );
  return calls;
}

export async function renderSystemPage(page: ReactElement) {
  await initI18n('en');
  await loadAdminMessages(['system']);
  Cookies.set('access_token', 'tok', { path: '/' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The route guard loads the profile before a settings page renders; the page reads it from the cache.
  client.setQueryData(profileKey(STAFF_INCLUDE), { id: '1', username: 'a', staff: { id: '1', is_admin: 1 } });
  return render(<QueryClientProvider client={client}>{page}</QueryClientProvider>);
}

export function cleanUpSystemPage(): void {
  vi.unstubAllGlobals();
  Cookies.remove('access_token', { path: '/' });
}

function isStatusAnswer(answer: unknown): answer is { status: number; body: unknown } {
  return typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer;
}
