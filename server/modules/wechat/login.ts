import type { FastifyRequest } from 'fastify';
import { randomToken } from '../../credentials/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { route, unchecked } from '../../core/route.ts';
import { type AuthScope, clientOf, perAddress } from '../auth/index.ts';
import {
  wechatAuthAnswerSchema,
  wechatAuthQuerySchema,
  wechatLoginAnswerSchema,
  wechatLoginSchema,
  WECHAT_OFF,
} from './schemas.ts';
import { finishWechatSignIn, startWechatSignIn } from './sign-in.ts';
import { STATE_TTL_MS } from './store.ts';

export const BASE = '/api/v1/wechat/officialaccount';
/** The httpOnly cookie that binds a state to the browser that asked for it (only its hash is stored). */
export const BROWSER_COOKIE = 'wechat_browser';
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const LIMIT = { max: 30, timeWindow: 60_000 };

/**
 * `GET auth` (the WeChat authorisation URL) and `POST login` (code + state back from WeChat): parse, call the
 * operation (signIn.ts), set or clear the browser cookie, reply.
 */
export function registerWechatLoginRoutes({ app, db, config, log }: AuthScope): void {
  route(app, {
    method: 'GET',
    url: `${BASE}/auth`,
    config: { rateLimit: perAddress('wechat-auth', LIMIT) },
    tags: ['wechat'],
    summary: 'Start WeChat sign-in: the authorisation URL to send the browser to',
    description: '404 when WeChat sign-in is off in the login settings.',
    isPublic: true,
    openapi: WECHAT_OFF,
    // Lenient: an href that is not a string is none, a remember other than 1/true is false.
    query: unchecked<{ href?: unknown; remember?: unknown } | undefined>(wechatAuthQuerySchema),
    responses: { 200: wechatAuthAnswerSchema },
    handler: async ({ query, request, reply }) => {
      const nonce = browserNonce(request) ?? randomToken();
      const answer = await startWechatSignIn(db, {
        openBase: config.wechatOpenBase,
        origin: config.publicOrigin ?? `${request.protocol}://${request.host}`,
        href: typeof query?.href === 'string' ? query.href : '',
        remember: ['1', 'true'].includes(String(query?.remember ?? '')),
        browserNonce: nonce,
      });
      void reply.setCookie(BROWSER_COOKIE, nonce, {
        path: BASE,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: STATE_TTL_MS / 1000,
      });
      return ok(answer);
    },
  });

  route(app, {
    method: 'POST',
    url: `${BASE}/login`,
    config: { rateLimit: perAddress('wechat-login', LIMIT) },
    tags: ['wechat'],
    summary: 'Finish WeChat sign-in: a token for a linked user, else a registration ticket',
    description:
      '422 for a bad, used, expired or foreign state and for WeChat errcodes (invalid or used code, bad ' +
      'app secret); 503 when WeChat cannot be reached (nothing is written then); 404 when off.',
    isPublic: true,
    openapi: WECHAT_OFF,
    body: wechatLoginSchema,
    responses: { 200: wechatLoginAnswerSchema },
    handler: async ({ body, request, reply }) => {
      const answer = await finishWechatSignIn(db, {
        apiBase: config.wechatApiBase,
        log,
        code: body.code,
        state: body.state,
        browserNonce: browserNonce(request),
        client: clientOf(request),
      });
      void reply.clearCookie(BROWSER_COOKIE, { path: BASE });
      return ok(answer);
    },
  });
}

/** The browser's nonce cookie, when it has the right shape. */
export function browserNonce(request: FastifyRequest): string | undefined {
  const value = request.cookies[BROWSER_COOKIE];
  return typeof value === 'string' && NONCE_SHAPE.test(value) ? value : undefined;
}
