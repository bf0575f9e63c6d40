import { vi } from 'vitest';

export interface FakeCall {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Reply = { status?: number; body: unknown; headers?: Record<string, string> } | Response;

/**
 * Replaces global fetch with a handler that records each call (method, path, query, body) and answers with
 * the JSON envelope (or Response) the handler returns.
 */
export function fakeFetch(handler: (call: FakeCall) => Reply | Promise<Reply>) {
  const calls: FakeCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const parsed = new URL(url, 'http://localhost');
    const raw = init.body;
    const body = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    const call: FakeCall = {
      method: init.method ?? 'GET',
      url,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: new Headers(init.headers),
      body,
    };
    calls.push(call);
    const reply = await handler(call);
    if (reply instanceof Response) return reply;
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** A contract list envelope. */
export function listEnvelope(rows: Record<string, unknown>[], total = rows.length) {
  return {
    code: 200,
    data: {
      data: rows,
      meta: { pagination: { total, count: rows.length, per_page: 15, current_page: 1, total_pages: 1 } },
    },
  };
}
