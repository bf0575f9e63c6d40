import { currentLocale } from '../i18n/locale.ts';
import { createHttpError } from './httpError.ts';
import type { FieldErrors } from './httpError.ts';
import { getToken, getXsrfToken, removeToken } from './token.ts';

export const API_BASE = '/api/';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON, or as-is for FormData (multipart uploads). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A Bearer token other than the session's (the 2FA enrolment token); a 401 then leaves the session alone. */
  bearer?: string;
  /** Receives the envelope's `meta` of a success (a bulk call's `operation_id`, for undo). */
  onMeta?: (meta: Record<string, unknown>) => void;
}

interface Envelope {
  code?: number;
  message?: string;
  data?: unknown;
  meta?: Record<string, unknown>;
  errors?: FieldErrors;
}

/** Headers sent with every call until cleared (the spec's Policy-Name and Policy-Id live here). */
const defaultHeaders = new Map<string, string>();

export function setDefaultHeader(name: string, value: string | null): void {
  if (value === null) defaultHeaders.delete(name);
  else defaultHeaders.set(name, value);
}

export function getDefaultHeaders(): Record<string, string> {
  return Object.fromEntries(defaultHeaders);
}

/** What happens on envelope code 401; replaceable in tests, where reloading jsdom is not possible. */
export const sessionExpiry = {
  onExpired: (): void => window.location.reload(),
};

/**
 * The one fetch wrapper of the app: `/api/` base, JSON in and out, Accept-Language from the stored locale, the
 * bearer token and XSRF header from cookies. Resolves with the envelope's `data` on code 200; on code 401
 * deletes the token and reloads (the guard then sends the user to sign in); rejects every other outcome with an
 * HttpError carrying status, message and the `errors` field map.
 *
 * @example
 * const profile = await httpClient<Profile>('v1/user/profile', { query: { include: 'avatar' } });
 */
export async function httpClient<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, signal } = options;
  const token = options.bearer ?? getToken();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLocale(),
    ...getDefaultHeaders(),
    ...options.headers,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = getXsrfToken();
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  const response = await fetch(buildUrl(path, query), {
    method,
    headers,
    body: payload,
    signal,
    credentials: 'same-origin',
  });
  const envelope = await readEnvelope(response);
  const code = envelope?.code ?? response.status;

  if (code === 200 || code === 201) {
    if (envelope?.meta && options.onMeta) options.onMeta(envelope.meta);
    return (envelope ? envelope.data : undefined) as T;
  }
  if (code === 401 && token && !options.bearer) {
    // The session is gone (expired or revoked): forget it and start over from a clean page. Without a token
    // there is nothing to reset, and a reload would only swallow the message (for example a failed sign-in).
    removeToken();
    sessionExpiry.onExpired();
  }
  throw createHttpError({
    status: code,
    message: envelope?.message ?? response.statusText ?? `HTTP ${code}`,
    errors: envelope?.errors ?? {},
    body: envelope,
  });
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = API_BASE + path.replace(/^\/+/, '');
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

async function readEnvelope(response: Response): Promise<Envelope | null> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return null;
  try {
    const parsed: unknown = await response.json();
    return parsed && typeof parsed === 'object' ? (parsed as Envelope) : null;
  } catch (error) {
    // A body that is not JSON has no envelope; a body cut off (the page left, the connection dropped) is no
    // answer at all, and must not pass for a success without data.
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}
