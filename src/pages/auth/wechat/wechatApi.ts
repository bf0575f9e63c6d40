import { httpClient } from '../../../providers/httpClient.ts';
import { sessionChanged } from '../../../providers/session.ts';
import { setToken } from '../../../providers/token.ts';

const BASE = 'v1/wechat/officialaccount';

export interface WechatToken {
  access_token: string;
  expires_at: string | null;
}

export interface WechatTicket {
  registration_ticket: string;
  expires_at: string;
  nickname: string;
  avatar: string | null;
  /** Whether new accounts may be created (otherwise only linking). */
  registration: boolean;
}

export interface WechatIdentity {
  enabled: boolean;
  has_password: boolean;
  identity: { nickname: string; avatar: string | null; linked_at: string } | null;
}

/** The WeChat authorisation URL for this browser; WeChat sends the user back to /login with code + state. */
export async function startWechatAuth({ href, remember }: { href?: string | null; remember?: boolean }) {
  const data = await httpClient<{ url: string }>(`${BASE}/auth`, {
    query: { href: href ?? undefined, remember: remember ? '1' : undefined },
  });
  return data.url;
}

/** In-flight logins by code: a code works once, so a re-rendered (or StrictMode) effect must share the call. */
const pendingLogins = new Map<string, Promise<WechatToken | WechatTicket>>();

export function wechatLogin({ code, state }: { code: string; state: string }) {
  let pending = pendingLogins.get(code);
  if (!pending) {
    pending = httpClient<WechatToken | WechatTicket>(`${BASE}/login`, {
      method: 'POST',
      body: { code, state },
    });
    pendingLogins.set(code, pending);
  }
  return pending;
}

export function isTicket(result: WechatToken | WechatTicket): result is WechatTicket {
  return 'registration_ticket' in result;
}

export function wechatRegister(body: Record<string, unknown>) {
  return httpClient<WechatToken>(`${BASE}/register`, { method: 'POST', body });
}

/** Keeps the session like a password sign-in does: a dated token is a remember-me one (30-day cookie). */
export function storeSession(token: WechatToken): void {
  sessionChanged();
  setToken(token.access_token, token.expires_at !== null);
}

export function getWechatIdentity(signal?: AbortSignal) {
  return httpClient<WechatIdentity>(`${BASE}/identity`, { signal });
}

export function unlinkWechat() {
  return httpClient<null>(`${BASE}/identity`, { method: 'DELETE' });
}
