import type { TokenAnswer } from '../../../schemas/auth.ts';
import { AppError } from '../../core/errors.ts';
import { getSettings } from '../../core/settings.ts';
import type { Queryable } from '../../db/index.ts';
import { type Client, openSession } from '../auth/index.ts';

export interface WechatSettings {
  appId: string;
  secret: string;
  registration: boolean;
}

/** The `login` settings when WeChat sign-in is on (enabled with an app id); 404 otherwise. */
export async function requireWechat(db: Queryable): Promise<WechatSettings> {
  const login = await getSettings(db, 'login');
  if (!login.wechat_enabled || !login.wechat_app_id) throw AppError.notFound();
  return { appId: login.wechat_app_id, secret: login.wechat_app_secret, registration: login.registration };
}

/** Whether WeChat sign-in is on, for the start-up config and the account page. */
export async function isWechatOn(db: Queryable): Promise<boolean> {
  const login = await getSettings(db, 'login');
  return Boolean(login.wechat_enabled && login.wechat_app_id);
}

/**
 * Signs a user in after WeChat vouched for them: the same token rules as a password sign-in (a new token,
 * remember = 30 days, last_login_at, activity with address and user agent). `action` names the event.
 */
export async function signIn(
  db: Queryable,
  {
    client,
    userId,
    remember,
    action,
    changes,
  }: {
    client: Client;
    userId: string;
    remember: boolean;
    action: string;
    changes?: Record<string, unknown>;
  },
): Promise<TokenAnswer> {
  return openSession(db, {
    userId,
    remember,
    client,
    action,
    changes: { method: 'wechat', remember, ...changes },
  });
}

/** Whether `href` is a same-origin path that may ride along on the return URL. */
export function isSafePath(href: string): boolean {
  if (href.length > 2048 || !href.startsWith('/') || href.startsWith('//')) return false;
  // Backslashes, whitespace and control characters are read as `/` or dropped by URL parsers.
  if (/[\s\\]/u.test(href)) return false;
  return ![...href].some(
    (ch) => ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f),
  );
}
