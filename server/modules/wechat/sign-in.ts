import type { Logger } from 'pino';
import { AppError } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';
import { type Client, findUserById, recordActivity } from '../auth/index.ts';
import { fetchWechatUser, WechatApiError, type WechatUser } from './client.ts';
import type { WechatLoginAnswer } from './schemas.ts';
import { isSafePath, requireWechat, signIn, type WechatSettings } from './session.ts';
import {
  burnState,
  consumeState,
  createState,
  createTicket,
  findIdentity,
  findLiveState,
  TICKET_TTL_MS,
  touchIdentity,
  type StateRow,
} from './store.ts';

/**
 * The WeChat sign-in operations (Fastify-free: the routes in login.ts own the cookie and the envelope).
 * Example: `const { url } = await startWechatSignIn(db, { openBase, origin, href, remember, browserNonce })`.
 */

/**
 * Starts a sign-in: a state bound to the browser's nonce, and the WeChat authorisation URL that carries it
 * back to `<origin>/login` (with `href` when it is a safe same-origin path). 404 while WeChat sign-in is off.
 */
export async function startWechatSignIn(
  db: Db,
  {
    openBase,
    origin,
    href,
    remember,
    browserNonce,
  }: { openBase: string; origin: string; href: string; remember: boolean; browserNonce: string },
): Promise<{ url: string }> {
  const settings = await requireWechat(db);
  const state = await createState(db, { browserNonce, remember });
  const back = new URL('/login', origin);
  if (href && isSafePath(href)) back.searchParams.set('href', href);
  // WeChat checks the parameters in this order and needs the #wechat_redirect fragment.
  const url =
    `${openBase.replace(/\/+$/, '')}/connect/oauth2/authorize` +
    `?appid=${encodeURIComponent(settings.appId)}` +
    `&redirect_uri=${encodeURIComponent(back.toString())}` +
    `&response_type=code&scope=snsapi_userinfo&state=${state}#wechat_redirect`;
  return { url };
}

/**
 * Finishes a sign-in with the code and state WeChat put on the return URL: a token for a linked user, else a
 * registration ticket. 422 for a bad, used, expired or foreign state and for WeChat errcodes; 503 when WeChat
 * cannot be reached (nothing is written then, so the user may retry); 404 while off.
 */
export async function finishWechatSignIn(
  db: Db,
  {
    apiBase,
    log,
    code,
    state: givenState,
    browserNonce,
    client,
  }: {
    apiBase: string;
    log: Pick<Logger, 'warn'>;
    code: string;
    state: string;
    browserNonce: string | undefined;
    client: Client;
  },
): Promise<WechatLoginAnswer> {
  const settings = await requireWechat(db);
  const state = await findLiveState(db, { state: givenState, browserNonce });
  if (!state) {
    await burnState(db, givenState);
    throw stateError();
  }

  let user: WechatUser;
  try {
    user = await fetchWechatUser({ apiBase, appId: settings.appId, secret: settings.secret, code });
  } catch (error) {
    if (error instanceof AppError && error.status === 503) {
      // Nothing is written: the state stays live, so the user may simply retry.
      log.warn({ event: 'wechat.unreachable' }, 'WeChat could not be reached');
      throw error;
    }
    await consumeState(db, state.id);
    if (error instanceof WechatApiError) {
      log.warn({ event: 'wechat.errcode', errcode: error.errcode }, 'WeChat refused the code exchange');
      await recordActivity(db, {
        client,
        action: 'auth.login_failed',
        operatorId: null,
        subjectId: null,
        changes: { method: 'wechat', reason: 'wechat_error', errcode: error.errcode },
      });
    }
    throw error;
  }
  return finishLogin(db, { client, state, user, settings });
}

async function finishLogin(
  db: Db,
  {
    client,
    state,
    user,
    settings,
  }: { client: Client; state: StateRow; user: WechatUser; settings: WechatSettings },
): Promise<WechatLoginAnswer> {
  if (!(await consumeState(db, state.id))) throw stateError();
  const identity = await findIdentity(db, user);
  if (!identity) {
    const ticket = await createTicket(db, { user, appId: settings.appId, remember: state.remember });
    return {
      registration_ticket: ticket,
      expires_at: new Date(Date.now() + TICKET_TTL_MS).toISOString(),
      nickname: user.nickname,
      avatar: user.avatar,
      registration: settings.registration,
    };
  }
  const account = await findUserById(db, identity.user_id);
  if (!account?.state) {
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: identity.user_id,
      changes: { method: 'wechat', reason: 'disabled' },
    });
    throw new AppError(422, 'auth.wechat.errors.disabled');
  }
  await touchIdentity(db, { id: identity.id, user, appId: settings.appId });
  return signIn(db, { client, userId: account.id, remember: state.remember, action: 'auth.login' });
}

function stateError(): AppError {
  return new AppError(422, 'auth.wechat.errors.state_invalid', {
    fields: { state: ['auth.wechat.errors.state_invalid'] },
  });
}
