import * as z from 'zod';
import { captchaSchema } from '../../../schemas/auth.ts';
import { CODE_TTL_MS, issueCode } from '../../credentials/codes.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { accountKeyOf, hitAccountLimiter, perAddress, type AuthScope } from './context.ts';
import { deliverCodeInBackground, isChannelConfigured } from './delivery.ts';
import { LIMITS, rateLimited } from './limits.ts';
import { findUserByAddress } from './users.ts';

/** `POST captcha`: makes and sends a 6-digit code. */
export function registerCaptchaRoutes(scope: AuthScope): void {
  const { app, db } = scope;
  const destinationLimiter = app.createRateLimit({
    ...LIMITS.captchaPerDestination,
    keyGenerator: accountKeyOf,
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/captcha',
    config: { rateLimit: perAddress('captcha', LIMITS.captchaPerAddress) },
    tags: ['account'],
    summary: 'Send a 6-digit code by email or SMS (same answer whether or not the address is known)',
    isPublic: true,
    body: captchaSchema,
    responses: { 200: z.object({ expires_in: z.number().int(), resend_in: z.number().int() }) },
    handler: async ({ body, request, reply }) => {
      // Binding a new address belongs to a signed-in user; the others are the public forms.
      if (body.scene === 'bind') await requireUser(request);
      if (!(await isChannelConfigured(scope, body.channel))) {
        throw new AppError(422, `auth.channel_unavailable.${body.channel}`, {
          fields: { channel: [`auth.channel_unavailable.${body.channel}`] },
        });
      }
      const window = await hitAccountLimiter(destinationLimiter, {
        request,
        key: `captcha:to:${body.channel}:${body.to}`,
      });
      if (window.isExceeded) throw rateLimited(window.ttl);

      const code = await issueCode(db, { target: body, ip: request.ip });
      // Reset and sign-in codes go only to an address that belongs to an enabled user; the answer is the same,
      // and so is the work after it: the delivery runs its steps on both paths and skips only the send.
      const isForExistingUser = body.scene === 'reset' || body.scene === 'login';
      const owner = isForExistingUser ? await findUserByAddress(db, body) : null;
      const deliverable = !isForExistingUser || Boolean(owner?.state);
      // Only once the answer has gone: started before, the delivery's first queries delayed the answer.
      reply.raw.once('close', () =>
        deliverCodeInBackground(scope, { ...body, code, locale: request.locale }, { deliverable }),
      );
      return ok({
        expires_in: CODE_TTL_MS / 1000,
        resend_in: LIMITS.captchaPerDestination.timeWindow / 1000,
      });
    },
  });
}
