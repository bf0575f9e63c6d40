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
import { requireUser } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { readDevice, rememberDevice } from './device.ts';
import { LIMITS } from './limits.ts';
import { confirmTotp, disableTotp, mfaStatus, signInSecondStep, startTotp } from './mfa.ts';
import { findUserById } from './users.ts';

/** The second-factor routes (issue 31): the 2FA sign-in step and the caller's TOTP enrolment. */
export function registerMfaRoutes({ app, db }: AuthScope): void {
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
    summary: "The caller's second factors",
    access: requireUser,
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
    access: requireUser,
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
    access: requireUser,
    body: totpConfirmSchema,
    responses: { 200: recoveryCodesSchema },
    handler: async ({ body, principal, request }) => {
      const codes = await confirmTotp(db, {
        userId: principal.userId,
        code: body.code,
        client: clientOf(request),
        device: readDevice(request),
      });
      return ok({ recovery_codes: codes });
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
