import { AppError } from '../../core/errors.ts';

/** How long one call to WeChat may take before the sign-in answers 503. */
export const WECHAT_TIMEOUT_MS = 5000;

/** What WeChat tells us about the person who consented (snsapi_userinfo). */
export interface WechatUser {
  openid: string;
  unionid: string | null;
  nickname: string;
  avatar: string | null;
}

/**
 * WeChat errcodes and the message each one becomes. Configuration mistakes (bad app id or secret, server IP
 * not allow-listed) get one message pointing at the administrator; the user cannot fix them by retrying.
 */
const ERRCODE_KEYS: Record<number, string> = {
  40029: 'auth.wechat.errors.invalid_code',
  40163: 'auth.wechat.errors.code_used',
  40001: 'auth.wechat.errors.misconfigured',
  40013: 'auth.wechat.errors.misconfigured',
  40125: 'auth.wechat.errors.misconfigured',
  40164: 'auth.wechat.errors.misconfigured',
  41002: 'auth.wechat.errors.misconfigured',
  41004: 'auth.wechat.errors.misconfigured',
  40003: 'auth.wechat.errors.invalid_code',
  42001: 'auth.wechat.errors.invalid_code',
  45011: 'auth.wechat.errors.busy',
};

/** Raised for an errcode payload; carries the code for the server log (never the secret or the user's code). */
export class WechatApiError extends AppError {
  readonly errcode: number;
  constructor(errcode: number) {
    super(422, ERRCODE_KEYS[errcode] ?? 'auth.wechat.errors.failed', { params: { errcode } });
    this.errcode = errcode;
  }
}

/**
 * Exchanges an authorisation code for the user's openid (+ unionid) and reads their profile. Throws
 * WechatApiError (422) for errcode payloads and a 503 AppError when WeChat cannot be reached or answers
 * something that is not WeChat JSON. Example:
 * `const user = await fetchWechatUser({ apiBase, appId, secret, code })`.
 */
export async function fetchWechatUser({
  apiBase,
  appId,
  secret,
  code,
}: {
  apiBase: string;
  appId: string;
  secret: string;
  code: string;
}): Promise<WechatUser> {
  const tokenUrl = new URL('/sns/oauth2/access_token', apiBase);
  tokenUrl.search = new URLSearchParams({
    appid: appId,
    secret,
    code,
    grant_type: 'authorization_code',
  }).toString();
  const token = await getJson(tokenUrl);
  // Snapshot-page users (is_snapshotuser = 1) have a virtual openid that is not the person's own.
  if (token.is_snapshotuser === 1) throw new AppError(422, 'auth.wechat.errors.snapshot_user');
  const accessToken = token.access_token;
  const openid = token.openid;
  if (typeof accessToken !== 'string' || typeof openid !== 'string' || !openid) {
    throw new AppError(503, 'auth.wechat.errors.unavailable');
  }

  const infoUrl = new URL('/sns/userinfo', apiBase);
  infoUrl.search = new URLSearchParams({ access_token: accessToken, openid, lang: 'zh_CN' }).toString();
  const info = await getJson(infoUrl);
  if (info.openid !== openid) throw new AppError(503, 'auth.wechat.errors.unavailable');
  const unionid = stringOrNull(info.unionid) ?? stringOrNull(token.unionid);
  return {
    openid,
    unionid,
    nickname: (stringOrNull(info.nickname) ?? '').slice(0, 100),
    avatar: safeAvatar(stringOrNull(info.headimgurl)),
  };
}

/** GET a WeChat API URL and parse its JSON body (WeChat often labels it text/plain). */
async function getJson(url: URL): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(WECHAT_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    text = await res.text();
  } catch {
    // Refused, reset, timed out or a gateway error: the same 503. The URL (secret, code) is never logged.
    throw new AppError(503, 'auth.wechat.errors.unavailable');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError(503, 'auth.wechat.errors.unavailable');
  }
  if (!body || typeof body !== 'object') throw new AppError(503, 'auth.wechat.errors.unavailable');
  const payload = body as Record<string, unknown>;
  const errcode = Number(payload.errcode ?? 0);
  // -1 is WeChat's "system busy": a retry later may work, like an outage.
  if (errcode === -1) throw new AppError(503, 'auth.wechat.errors.unavailable');
  if (errcode !== 0) throw new WechatApiError(errcode);
  return payload;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Only an https (or, for the test fake, http) URL is kept as the avatar; anything else is dropped. */
function safeAvatar(value: string | null): string | null {
  if (!value || value.length > 500) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}
