import {
  mfaLoginSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
  totpConfirmSchema,
  totpDisableSchema,
  totpEnrolmentSchema,
} from '../../../schemas/mfa.ts';
import { tokenSchema } from '../../../schemas/auth.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { bearerToken, requireUser } from '../../core/principal.ts';
import * as z from 'zod';
import { wireId } from '../../../schemas/wire.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { translate } from '../../../locales/index.ts';
import { safeError } from '../../core/http.ts';
import { getSettings } from '../../core/settings.ts';
import { resolveMailer } from '../../mail/mailer.ts';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/index.ts';
import { permission, route } from '../../core/route.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { readDevice, rememberDevice } from './device.ts';
import { LIMITS } from './limits.ts';
import {
  confirmTotp,
  disableTotp,
  enrolmentUser,
  finishEnrolment,
  mfaStatus,
  resetFactors,
  signInSecondStep,
  startTotp,
} from './mfa.ts';
import { findUserById } from './users.ts';

/** The second-factor routes (issue 31): the 2FA sign-in step and the caller's TOTP enrolment. */
export function registerMfaRoutes({ app, db, config }: AuthScope): void {
  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/users/:id/2fa',
    tags: ['account'],
    summary:
      "Reset a user's second factors (authenticator, recovery codes, passkeys); the user is told by mail",
    description: "Audited as `auth.mfa_reset`. Only an administrator may reset an administrator's factors.",
    access: permission(`${PERMISSION.usersUsers}.update`),
    params: z.object({ id: wireId }),
    responses: { 200: null },
    handler: async ({ params, principal, request }) => {
      const target = await resetFactors(db, {
        userId: params.id,
        actor: principal,
        client: clientOf(request),
      });
      const locale = request.locale;
      // Told in the background, like the other security notices (server/modules/delivery-notice.ts).
      void (async () => {
        if (!target.email) return;
        const mailer = await resolveMailer({ db, config });
        if (!mailer) return;
        const site = await getSettings(db, 'site');
        const params = {
          site_name: site.site_name,
          username: target.username,
          time: new Date().toISOString(),
          ip: request.ip,
        };
        await mailer.send({
          to: target.email,
          subject: translate(locale, 'auth.mail.mfa_reset_subject', params),
          text: translate(locale, 'auth.mail.mfa_reset_body', params),
        });
      })().catch((error: unknown) => request.log.warn({ err: safeError(error) }, 'mfa reset notice failed'));
      return ok(null);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/login/2fa',
    config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
    tags: ['account'],
    summary: 'Finish a two-step sign-in with an authenticator code or a recovery code',
    description:
      'Send the `mfa_token` of the first step (5 minutes, one sign-in) and either `code` (six digits; a ' +
      'code is accepted once) or `recovery_code` (each works once). Codes are counted like passwords: 429 ' +
      'past the same windows.',
    isPublic: true,
    body: mfaLoginSchema,
    responses: { 200: tokenSchema },
    handler: async ({ body, request, reply }) => {
      const { userId, ...token } = await signInSecondStep(db, {
        mfaToken: body.mfa_token,
        code: body.code,
        recoveryCode: body.recovery_code,
        client: clientOf(request),
        device: readDevice(request),
      });
      await rememberDevice(db, { request, reply, userId });
      return ok(token);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/user/2fa',
    tags: ['account'],
    summary: "The caller's second factors (an enrolment token may call it)",
    access: enrolling(db),
    responses: { 200: mfaStatusSchema },
    handler: async ({ principal }) => ok(await mfaStatus(db, principal.userId)),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/2fa/totp',
    config: { rateLimit: perAddress('password', LIMITS.passwordPerAddress) },
    tags: ['account'],
    summary: 'Start TOTP enrolment: a new secret, its otpauth URL and an SVG QR code',
    description: 'Not active until confirmed with a code. 409 when TOTP is already on.',
    errors: [409],
    access: enrolling(db),
    responses: { 200: totpEnrolmentSchema },
    handler: async ({ principal }) => {
      const user = await findUserById(db, principal.userId);
      if (!user) throw AppError.unauthenticated();
      return ok(await startTotp(db, { user }));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/2fa/totp/confirm',
    config: { rateLimit: perAddress('password', LIMITS.passwordPerAddress) },
    tags: ['account'],
    summary: 'Turn TOTP on with a first code; answers ten recovery codes, shown this once',
    description:
      'Called with an enrolment token (`login.require_2fa`), it also answers the session the sign-in was ' +
      'waiting for: `access_token` and `expires_at`.',
    access: enrolling(db),
    body: totpConfirmSchema,
    responses: { 200: recoveryCodesSchema },
    handler: async ({ body, principal, request, reply }) => {
      const codes = await confirmTotp(db, {
        userId: principal.userId,
        code: body.code,
        client: clientOf(request),
        device: readDevice(request),
      });
      const session = principal.enrolmentTokenId
        ? await finishEnrolment(db, {
            tokenId: principal.enrolmentTokenId,
            userId: principal.userId,
            client: clientOf(request),
            method: 'totp',
          })
        : null;
      if (session) await rememberDevice(db, { request, reply, userId: principal.userId });
      return ok({ recovery_codes: codes, ...(session ?? {}) });
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/2fa/totp',
    config: { rateLimit: perAddress('password', LIMITS.passwordPerAddress) },
    tags: ['account'],
    summary: 'Turn TOTP off (and drop the recovery codes); needs the account password',
    access: requireUser,
    body: totpDisableSchema,
    responses: { 200: null },
    handler: async ({ body, principal, request }) => {
      const user = await findUserById(db, principal.userId);
      if (!user) throw AppError.unauthenticated();
      await disableTotp(db, {
        user,
        password: body.password,
        client: clientOf(request),
        device: readDevice(request),
      });
      return ok(null);
    },
  });
}

/**
 * Access for the enrolment calls: a signed-in user, or the Bearer enrolment token of a user the
 * `login.require_2fa` policy covers (good for these calls and the passkey registration alone; every other
 * route sees no principal).
 */
export function enrolling(db: Queryable) {
  return async (request: FastifyRequest): Promise<{ userId: string; enrolmentTokenId: string | null }> => {
    const principal = await request.principal();
    if (principal) return { userId: principal.userId, enrolmentTokenId: null };
    const bearer = bearerToken(request);
    const enrolment = bearer ? await enrolmentUser(db, bearer) : null;
    if (!enrolment) throw AppError.unauthenticated();
    return { userId: enrolment.userId, enrolmentTokenId: enrolment.tokenId };
  };
}
