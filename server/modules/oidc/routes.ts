import type { FastifyReply, FastifyRequest } from 'fastify';
import { signInAnswerSchema } from '../../../schemas/mfa.ts';
import { randomToken } from '../../credentials/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser } from '../../core/principal.ts';
import { rawAnswer, route, unchecked } from '../../core/route.ts';
import { type AuthScope, clientOf, LIMITS, perAddress, rememberDevice } from '../auth/index.ts';
import { OidcFailure } from './client.ts';
import {
  authQuerySchema,
  bindAnswerSchema,
  bindingsAnswerSchema,
  providerParams,
  ticketLoginSchema,
} from './schemas.ts';
import { finishOidcCallback, signInWithTicket, startOidc } from './sign-in.ts';
import { bindingsOf, unbind } from './bindings.ts';
import { requireProvider } from './settings.ts';
import { STATE_TTL_MS } from './store.ts';

/** The httpOnly cookie that binds a state to the browser that started it (only its hash is stored). */
export const BROWSER_COOKIE = 'oidc_browser';
const COOKIE_PATH = '/api/v1/oidc';
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const LIMIT = { max: 30, timeWindow: 60_000 };
const REDIRECT = rawAnswer({ description: 'A redirect (Location) to the provider or back to the app' });

/** The OpenID Connect routes (issue 31): parse, call the operation (sign-in.ts, bindings.ts), reply. */
export function registerOidcRoutes({ app, db, config, log }: AuthScope): void {
  const originOf = (request: FastifyRequest) =>
    config.publicOrigin ?? `${request.protocol}://${request.host}`;

  route(app, {
    method: 'GET',
    url: '/api/v1/oidc/:provider/auth',
    config: { rateLimit: perAddress('oidc-auth', LIMIT) },
    tags: ['oidc'],
    summary: 'Start signing in with an OpenID provider: redirects to it (state, nonce, PKCE)',
    description:
      'A 302 to the provider; when it cannot be reached, a 302 to `/login?oidc_error=unavailable`. 404 for a ' +
      'provider the login settings do not name.',
    isPublic: true,
    params: providerParams,
    query: unchecked<{ href?: unknown; remember?: unknown } | undefined>(authQuerySchema),
    responses: { 302: REDIRECT },
    handler: async ({ params, query, request, reply }) => {
      const nonce = setBrowserCookie(request, reply);
      const href = typeof query?.href === 'string' ? query.href : '';
      try {
        const url = await startOidc(db, {
          providerId: params.provider,
          origin: originOf(request),
          href,
          remember: ['1', 'true'].includes(String(query?.remember ?? '')),
          browserNonce: nonce,
          bindUserId: null,
        });
        return reply.redirect(url, 302);
      } catch (error) {
        if (!(error instanceof OidcFailure)) throw error;
        log.warn({ event: 'oidc.unreachable', provider: params.provider }, 'OpenID provider unreachable');
        return reply.redirect(`/login?${new URLSearchParams({ oidc_error: 'unavailable' })}`, 302);
      }
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oidc/:provider/callback',
    config: { rateLimit: perAddress('oidc-callback', LIMIT) },
    tags: ['oidc'],
    summary: "The provider's redirect back: to `/login?oidc_ticket=` (or `oidc_error=`)",
    description:
      'Checks the state (this browser, this provider, unused, ten minutes), exchanges the code with the PKCE ' +
      'verifier and checks the id_token (signature, issuer, audience, nonce). A binding returns to ' +
      '`/account/security?oidc_bound=<id>` instead.',
    isPublic: true,
    params: providerParams,
    responses: { 302: REDIRECT },
    handler: async ({ params, request, reply }) => {
      const callbackUrl = new URL(request.url, originOf(request));
      const to = await finishOidcCallback(db, {
        providerId: params.provider,
        callbackUrl,
        browserNonce: browserNonce(request),
        client: clientOf(request),
        log,
      });
      void reply.clearCookie(BROWSER_COOKIE, { path: COOKIE_PATH });
      return reply.redirect(to, 302);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/oidc/login',
    config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
    tags: ['oidc'],
    summary: 'Sign in with the one-time ticket of an OpenID callback',
    description:
      'Answers the token, or the second step (`mfa_required`) or the enrolment the account needs. 422 on ' +
      '`ticket` for an unknown, used or expired ticket (two minutes, one use).',
    isPublic: true,
    body: ticketLoginSchema,
    responses: { 200: signInAnswerSchema },
    handler: async ({ body, request, reply }) => {
      const result = await signInWithTicket(db, { ticket: body.ticket, client: clientOf(request) });
      // As after a password: this browser becomes a known device of the account once signed in.
      if (result.isSignedIn) await rememberDevice(db, { request, reply, userId: result.userId });
      return ok(result.answer);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/user/oidc',
    tags: ['oidc'],
    summary: "The OpenID providers and the caller's bindings to them",
    access: requireUser,
    responses: { 200: bindingsAnswerSchema },
    handler: async ({ principal }) => ok(await bindingsOf(db, principal.userId)),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/oidc/:provider/bind',
    config: { rateLimit: perAddress('oidc-auth', LIMIT) },
    tags: ['oidc'],
    summary: 'Start binding an OpenID provider to the signed-in account: the URL to send the browser to',
    description:
      'The provider sends the browser back to `/account/security?oidc_bound=<id>` (or `oidc_error=`). 404 for ' +
      'an unknown provider; 409 when the account is bound to it already.',
    errors: [409],
    access: requireUser,
    params: providerParams,
    responses: { 200: bindAnswerSchema },
    handler: async ({ params, principal, request, reply }) => {
      const provider = await requireProvider(db, params.provider);
      const bindings = await bindingsOf(db, principal.userId);
      if (bindings.some((b) => b.id === provider.id && b.bound)) {
        throw new AppError(409, 'auth.oidc.errors.already_linked');
      }
      const nonce = setBrowserCookie(request, reply);
      try {
        const url = await startOidc(db, {
          providerId: provider.id,
          origin: originOf(request),
          href: '',
          remember: false,
          browserNonce: nonce,
          bindUserId: principal.userId,
        });
        return ok({ url });
      } catch (error) {
        if (!(error instanceof OidcFailure)) throw error;
        log.warn({ event: 'oidc.unreachable', provider: provider.id }, 'OpenID provider unreachable');
        throw new AppError(422, 'auth.oidc.errors.unavailable');
      }
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/oidc/:provider',
    tags: ['oidc'],
    summary: 'Unbind an OpenID provider from the signed-in account',
    description:
      '404 when the account is not bound to it; 422 when it has no password (it could not sign in).',
    access: requireUser,
    params: providerParams,
    responses: { 200: null },
    handler: async ({ params, principal, request }) => {
      await unbind(db, { userId: principal.userId, providerId: params.provider, client: clientOf(request) });
      return ok(null);
    },
  });
}

/** Sets (or keeps) the browser's nonce cookie, read back by the callback; answers it. */
function setBrowserCookie(request: FastifyRequest, reply: FastifyReply): string {
  const nonce = browserNonce(request) ?? randomToken();
  void reply.setCookie(BROWSER_COOKIE, nonce, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: STATE_TTL_MS / 1000,
  });
  return nonce;
}

function browserNonce(request: FastifyRequest): string | undefined {
  const value = request.cookies[BROWSER_COOKIE];
  return typeof value === 'string' && NONCE_SHAPE.test(value) ? value : undefined;
}
