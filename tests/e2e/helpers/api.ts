/**
 * The API of a server under test, for what a browser test sets up or checks beside the browser: plain HTTP,
 * as any client calls it.
 */
export interface ApiCall {
  /** A bearer token; none (or null) calls signed out. */
  token?: string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** The Accept-Language header; the server's default language without it. */
  language?: string;
}

/**
 * `<baseURL>/api/<path>` called with `method`, JSON in and out.
 *
 * @example const res = await apiFetch(server.baseURL, 'GET', 'v1/user/staff', { token });
 */
export function apiFetch(
  baseURL: string,
  method: string,
  path: string,
  { token, body, language }: ApiCall = {},
): Promise<Response> {
  return fetch(`${baseURL}/api/${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(language ? { 'accept-language': language } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** `apiFetch`, answering the status and the envelope's `data`. */
export async function apiData(
  baseURL: string,
  method: string,
  path: string,
  call: ApiCall = {},
): Promise<{ status: number; data: unknown }> {
  const res = await apiFetch(baseURL, method, path, call);
  return { status: res.status, data: ((await res.json()) as { data?: unknown }).data };
}

/** Signs in through the API (`remember: false`); answers the access token, or throws with the answer. */
export async function apiSignIn(baseURL: string, username: string, password: string): Promise<string> {
  const res = await apiFetch(baseURL, 'POST', 'v1/user/login', {
    body: { username, password, remember: false },
  });
  const json = (await res.json()) as { data?: { access_token?: string } };
  if (res.status !== 200 || !json.data?.access_token)
    throw new Error(`sign-in as ${username}: ${res.status} ${JSON.stringify(json)}`);
  return json.data.access_token;
}
