import { httpClient } from './httpClient.ts';
import { setToken } from './token.ts';

export interface LoginParams {
  username: string;
  password: string;
  remember?: boolean;
}

/** `POST v1/user/register`'s payload: one address (email or phone) proven by a code. */
export interface RegisterParams {
  username: string;
  password: string;
  password_confirmation: string;
  captcha: string;
  email?: string;
  phone?: string;
}

const listeners = new Set<() => void>();

/**
 * Runs `listener` whenever who is signed in changes; the react-query cache (providers/queryClient.ts) drops
 * its profiles this way. The signed-out pages sign in through this module, without react-query.
 */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners that the signed-in user (or their staff record) changed. */
export function sessionChanged(): void {
  listeners.forEach((listener) => listener());
}

/** Signs in with a password and keeps the token (a remember-me one for 30 days). */
export async function signIn({ username, password, remember = false }: LoginParams): Promise<void> {
  const data = await httpClient<{ access_token: string }>('v1/user/login', {
    method: 'POST',
    body: { username, password, remember },
  });
  sessionChanged();
  setToken(data.access_token, remember);
}

/** Registers and signs in (spec 7: "Login or register stores the token"), with a session cookie. */
export async function registerAccount(params: RegisterParams): Promise<void> {
  const data = await httpClient<{ access_token: string }>('v1/user/register', {
    method: 'POST',
    body: params,
  });
  sessionChanged();
  setToken(data.access_token, false);
}
