import type { FastifyRequest } from 'fastify';
import { randomToken } from '../../credentials/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { validate } from '../../core/validate.ts';
import { answerJson, inputJson } from '../../core/openapi.ts';
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
  app.get<{ Querystring: { href?: string; remember?: string } }>(
    `${BASE}/auth`,
    {
      config: { rateLimit: perAddress('wechat-auth', LIMIT) },
      schema: {
        tags: ['wechat'],
        summary: 'Start WeChat sign-in: the authorisation URL to send the browser to',
        description: '404 when WeChat sign-in is off in the login settings.',
        security: [],
        querystring: inputJson(wechatAuthQuerySchema),
        response: { 200: answerJson(wechatAuthAnswerSchema) },
        ...WECHAT_OFF,
      },
    },
    async (request, reply) => {
      const nonce = browserNonce(request) ?? randomToken();
      const answer = await startWechatSignIn(db, {
        openBase: config.wechatOpenBase,
        origin: config.publicOrigin ?? `${request.protocol}://${request.host}`,
        href: typeof request.query.href === 'string' ? request.query.href : '',
        remember: ['1', 'true'].includes(String(request.query.remember ?? '')),
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
        body: inputJson(wechatLoginSchema),
        response: { 200: answerJson(wechatLoginAnswerSchema) },
        ...WECHAT_OFF,
      },
    },
    async (request, reply) => {
      const body = validate(wechatLoginSchema, request.body);
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
  );
}

/** The browser's nonce cookie, when it has the right shape. */
export function browserNonce(request: FastifyRequest): string | undefined {
  const value = request.cookies[BROWSER_COOKIE];
  return typeof value === 'string' && NONCE_SHAPE.test(value) ? value : undefined;
}
