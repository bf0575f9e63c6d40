import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { tokenSchema } from '../../../schemas/auth.ts';
import {
  passkeyLoginOptionsSchema,
  passkeyLoginSchema,
  passkeyRegisterSchema,
  passkeyRegisteredSchema,
  passkeyRenameSchema,
  passkeySchema,
  webauthnOptionsSchema,
} from '../../../schemas/mfa.ts';
import { wireId } from '../../../schemas/wire.ts';
import type { Config } from '../../config.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { getSettings } from '../../core/settings.ts';
import type { Queryable } from '../../db/index.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { rememberDevice } from './device.ts';
import { LIMITS } from './limits.ts';
import { finishEnrolment } from './mfa.ts';
import { enrolling } from './mfa-routes.ts';
import {
  deletePasskey,
  listPasskeys,
  passkeyLoginOptions,
  passkeyRegistrationOptions,
  registerPasskey,
  renamePasskey,
  signInWithPasskey,
  type RelyingParty,
} from './passkeys.ts';
import { findUserById } from './users.ts';

const idParams = z.object({ id: wireId });

/** The passkey routes (issue 31, item 2): the caller's passkeys, and signing in with one. */
export function registerPasskeyRoutes({ app, db, config }: AuthScope): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/passkeys',
    tags: ['account'],
    summary: "The caller's passkeys",
    access: requireUser,
    responses: { 200: z.array(passkeySchema) },
    handler: async ({ principal }) => ok(await listPasskeys(db, principal.userId)),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/passkeys/options',
    config: { rateLimit: perAddress('password', LIMITS.passwordPerAddress) },
    tags: ['account'],
    summary: 'Options for navigator.credentials.create to register a passkey (a challenge for 5 minutes)',
    description: 'An enrolment token (`login.require_2fa`) may call it in place of a session.',
    access: enrolling(db),
    responses: { 200: webauthnOptionsSchema },
    handler: async ({ principal, request }) => {
      const user = await findUserById(db, principal.userId);
      if (!user) throw AppError.unauthenticated();
      return ok(await passkeyRegistrationOptions(db, { user, rp: await relyingParty(db, config, request) }));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/passkeys',
    config: { rateLimit: perAddress('password', LIMITS.passwordPerAddress) },
    tags: ['account'],
    summary: "Register a passkey: the browser's answer to the options, and a name",
    description:
      'Called with an enrolment token (`login.require_2fa`), it spends the token and also answers the ' +
      'session the sign-in was waiting for: `access_token` and `expires_at`, as the TOTP confirm does.',
    access: enrolling(db),
    body: passkeyRegisterSchema,
    responses: { 201: passkeyRegisteredSchema },
    handler: async ({ body, principal, request, reply }) => {
      const passkey = await registerPasskey(db, {
        userId: principal.userId,
        name: body.name,
        response: body.response,
        rp: await relyingParty(db, config, request),
        client: clientOf(request),
      });
      const session = principal.enrolmentTokenId
        ? await finishEnrolment(db, {
            tokenId: principal.enrolmentTokenId,
            userId: principal.userId,
            client: clientOf(request),
            method: 'passkey',
          })
        : null;
      if (session) await rememberDevice(db, { request, reply, userId: principal.userId });
      return reply.code(201).send(ok({ ...passkey, ...(session ?? {}) }));
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/api/v1/user/passkeys/:id',
    tags: ['account'],
    summary: 'Rename a passkey',
    access: requireUser,
    params: idParams,
    body: passkeyRenameSchema,
    responses: { 200: passkeySchema },
    handler: async ({ params, body, principal }) =>
      ok(await renamePasskey(db, { userId: principal.userId, id: params.id, name: body.name })),
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/passkeys/:id',
    tags: ['account'],
    summary: 'Delete a passkey',
    access: requireUser,
    params: idParams,
    responses: { 200: null },
    handler: async ({ params, principal, request }) => {
      await deletePasskey(db, { userId: principal.userId, id: params.id, client: clientOf(request) });
      return ok(null);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/login/passkey/options',
    config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
    tags: ['account'],
    summary: 'Options for navigator.credentials.get: sign in with a passkey, or finish a two-step sign-in',
    isPublic: true,
    body: passkeyLoginOptionsSchema,
    responses: { 200: webauthnOptionsSchema },
    handler: async ({ body, request }) =>
      ok(
        await passkeyLoginOptions(db, {
          mfaToken: body.mfa_token,
          rp: await relyingParty(db, config, request),
        }),
      ),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/login/passkey',
    config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
    tags: ['account'],
    summary: 'Sign in with a passkey (user verified), or finish a two-step sign-in with one (mfa_token)',
    isPublic: true,
    body: passkeyLoginSchema,
    responses: { 200: tokenSchema },
    handler: async ({ body, request, reply }) => {
      const { userId, ...token } = await signInWithPasskey(db, {
        response: body.response,
        mfaToken: body.mfa_token,
        remember: body.remember,
        rp: await relyingParty(db, config, request),
        client: clientOf(request),
      });
      await rememberDevice(db, { request, reply, userId });
      return ok(token);
    },
  });
}

/**
 * The relying party: PUBLIC_ORIGIN when set, else the request's own origin (its Host was already checked
 * against the allowed hosts, core/hosts.ts). The RP ID is that origin's host name.
 */
async function relyingParty(db: Queryable, config: Config, request: FastifyRequest): Promise<RelyingParty> {
  const origin = config.publicOrigin ?? `${request.protocol}://${request.host}`;
  const site = await getSettings(db, 'site');
  return { name: site.site_name, id: new URL(origin).hostname, origin: new URL(origin).origin };
}
