import type { FastifyRequest } from 'fastify';
import { randomToken } from '../../auth/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { validate } from '../../core/http.ts';
import { findUserById } from '../auth/users.ts';
import { recordActivity } from '../auth/activity.ts';
import { perAddress, type AuthScope } from '../auth/context.ts';
import { fetchWechatUser, WechatApiError, type WechatUser } from './client.ts';
import { authQuerySchema, authResponseSchema, loginBodySchema, loginResponseSchema } from './openapi.ts';
import { wechatLoginSchema } from './schemas.ts';
import { isSafePath, requireWechat, signIn, type WechatSettings } from './session.ts';
import {
  burnState,
  consumeState,
  createState,
  createTicket,
  findIdentity,
  findLiveState,
  STATE_TTL_MS,
  TICKET_TTL_MS,
  touchIdentity,
  type StateRow,
} from './store.ts';

export const BASE = '/api/v1/wechat/officialaccount';
/** The httpOnly cookie that binds a state to the browser that asked for it (only its hash is stored). */
export const BROWSER_COOKIE = 'wechat_browser';
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const LIMIT = { max: 30, timeWindow: 60_000 };

/** `GET auth` (the WeChat authorisation URL) and `POST login` (code + state back from WeChat). */
export function registerWechatLoginRoutes({ app, db, config, log }: AuthScope): void {
  app.get<{ Querystring: { href?: string; remember?: string } }>(
    `${BASE}/auth`,
    {
      config: { rateLimit: perAddress('wechat-auth', LIMIT) },
      schema: {
        tags: ['wechat'],
        summary: 'Start WeChat sign-in: the authorisation URL to send the browser to',
        description: '404 when WeChat sign-in is off in the login settings.',
        security: [],
        querystring: authQuerySchema,
        response: { 200: authResponseSchema },
      },
    },
    async (request, reply) => {
      const settings = await requireWechat(db);
      const href = typeof request.query.href === 'string' ? request.query.href : '';
      const remember = ['1', 'true'].includes(String(request.query.remember ?? ''));
      const nonce = browserNonce(request) ?? randomToken();
      void reply.setCookie(BROWSER_COOKIE, nonce, {
        path: BASE,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: STATE_TTL_MS / 1000,
      });
      const state = await createState(db, { browserNonce: nonce, remember });
      const origin = config.publicOrigin ?? `${request.protocol}://${request.host}`;
      const back = new URL('/login', origin);
      if (href && isSafePath(href)) back.searchParams.set('href', href);
      // WeChat checks the parameters in this order and needs the #wechat_redirect fragment.
      const url =
        `${config.wechatOpenBase.replace(/\/+$/, '')}/connect/oauth2/authorize` +
        `?appid=${encodeURIComponent(settings.appId)}` +
        `&redirect_uri=${encodeURIComponent(back.toString())}` +
        `&response_type=code&scope=snsapi_userinfo&state=${state}#wechat_redirect`;
      return ok({ url });
    },
  );

  app.post(
    `${BASE}/login`,
    {
      config: { rateLimit: perAddress('wechat-login', LIMIT) },
      schema: {
        tags: ['wechat'],
        summary: 'Finish WeChat sign-in: a token for a linked user, else a registration ticket',
        description:
          '422 for a bad, used, expired or foreign state and for WeChat errcodes (invalid or used code, bad ' +
          'app secret); 503 when WeChat cannot be reached (nothing is written then); 404 when off.',
        security: [],
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const body = validate(wechatLoginSchema, request.body);
      const settings = await requireWechat(db);
      const state = await findLiveState(db, { state: body.state, browserNonce: browserNonce(request) });
      if (!state) {
        await burnState(db, body.state);
        throw stateError();
      }

      let user: WechatUser;
      try {
        user = await fetchWechatUser({
          apiBase: config.wechatApiBase,
          appId: settings.appId,
          secret: settings.secret,
          code: body.code,
        });
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
            request,
            action: 'auth.login_failed',
            operatorId: null,
            subjectId: null,
            changes: { method: 'wechat', reason: 'wechat_error', errcode: error.errcode },
          });
        }
        throw error;
      }

      const result = await finishLogin({ request, state, user, settings });
      void reply.clearCookie(BROWSER_COOKIE, { path: BASE });
      return ok(result);
    },
  );

  async function finishLogin({
    request,
    state,
    user,
    settings,
  }: {
    request: FastifyRequest;
    state: StateRow;
    user: WechatUser;
    settings: WechatSettings;
  }) {
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
        request,
        action: 'auth.login_failed',
        operatorId: null,
        subjectId: identity.user_id,
        changes: { method: 'wechat', reason: 'disabled' },
      });
      throw new AppError(422, 'auth.wechat.errors.disabled');
    }
    await touchIdentity(db, { id: identity.id, user, appId: settings.appId });
    return signIn(db, { request, userId: account.id, remember: state.remember, action: 'auth.login' });
  }
}

/** The browser's nonce cookie, when it has the right shape. */
export function browserNonce(request: FastifyRequest): string | undefined {
  const value = request.cookies[BROWSER_COOKIE];
  return typeof value === 'string' && NONCE_SHAPE.test(value) ? value : undefined;
}

function stateError(): AppError {
  return new AppError(422, 'auth.wechat.errors.state_invalid', {
    fields: { state: ['auth.wechat.errors.state_invalid'] },
  });
}
