import { QueryClient, QueryObserver } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STAFF_INCLUDE, fetchProfile, loadProfile, profileKey } from './profile.ts';
import { getToken, setToken } from './token.ts';

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const profile = { id: '1', username: 'li', staff: { id: '5', is_admin: 1, roles: [] } };

/** A fetch that answers with the profile only when told to, and rejects as a browser does when aborted. */
function heldFetch() {
  const pending: { answer: () => void }[] = [];
  const fetchMock = vi.fn<typeof fetch>(
    (_url, init) =>
      new Promise<Response>((resolve, reject) => {
        const signal = init?.signal;
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        pending.push({ answer: () => resolve(reply({ code: 200, data: profile })) });
      }),
  );
  return { fetchMock, pending };
}

describe('profile loading', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    setToken('a-token', false);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Cookies.remove('access_token', { path: '/' });
    client.clear();
  });

  it('a profile query cancelled by a page change keeps the token, and loadProfile still resolves', async () => {
    const { fetchMock, pending } = heldFetch();
    vi.stubGlobal('fetch', fetchMock);
    // A screen's useQuery of the staff profile (useCan, fieldAccess) is mounted while the guard loads it.
    const observer = new QueryObserver(client, {
      queryKey: profileKey(STAFF_INCLUDE),
      queryFn: ({ signal }) => fetchProfile(STAFF_INCLUDE, signal),
    });
    const stop = observer.subscribe(() => undefined);
    const loading = loadProfile(client, STAFF_INCLUDE);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    // The page changes: the screen unmounts before the answer, which cancels the shared request.
    stop();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(getToken()).toBe('a-token');
    pending.at(-1)!.answer();
    await expect(loading).resolves.toMatchObject({ id: '1', username: 'li' });
    expect(getToken()).toBe('a-token');
  });

  it('fetchProfile keeps the token when its own signal aborts the request', async () => {
    const { fetchMock } = heldFetch();
    vi.stubGlobal('fetch', fetchMock);
    const abort = new AbortController();
    const loading = fetchProfile(STAFF_INCLUDE, abort.signal);
    abort.abort();
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    expect(getToken()).toBe('a-token');
  });

  it('a profile request cut off without an answer keeps the token; loadProfile asks again', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => {
        calls += 1;
        // What a browser gives a fetch cut off by leaving the page or by a dropped connection.
        if (calls <= 2) throw new TypeError('Failed to fetch');
        return reply({ code: 200, data: profile });
      }),
    );
    await expect(fetchProfile(STAFF_INCLUDE)).rejects.toBeInstanceOf(TypeError);
    expect(getToken()).toBe('a-token');
    await expect(loadProfile(client, STAFF_INCLUDE)).resolves.toMatchObject({ id: '1' });
    expect(calls).toBe(3);
    expect(getToken()).toBe('a-token');
  });

  it('loadProfile rejects once the retries get no answer either, and the token stays', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(loadProfile(client, STAFF_INCLUDE)).rejects.toBeInstanceOf(TypeError);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(getToken()).toBe('a-token');
  });

  it('a 200 whose body is cut off is no answer, not an empty profile', async () => {
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"code":200,"da'));
        controller.error(new TypeError('network error'));
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(
        async () => new Response(cut, { status: 200, headers: { 'content-type': 'application/json' } }),
      ),
    );
    await expect(fetchProfile(STAFF_INCLUDE)).rejects.toBeInstanceOf(TypeError);
    expect(getToken()).toBe('a-token');
  });

  it('a profile load the server refuses deletes the token (spec 4), through loadProfile and fetchProfile', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => reply({ code: 500, message: 'broken' }, 500)),
    );
    await expect(loadProfile(client, STAFF_INCLUDE)).resolves.toBeNull();
    expect(getToken()).toBeUndefined();
    setToken('a-token', false);
    await expect(fetchProfile(STAFF_INCLUDE)).resolves.toBeNull();
    expect(getToken()).toBeUndefined();
  });
});
