import { registerSchema, tokenSchema } from '../../../schemas/auth.ts';
import { consumeCode } from '../../credentials/codes.ts';
import { hashPassword, isAcceptablePassword } from '../../credentials/password.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { route } from '../../core/route.ts';
import { getSettings } from '../../core/settings.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { rememberDevice } from './device.ts';
import { LIMITS } from './limits.ts';
import { openSession } from './session.ts';
import { insertUser, takenFields } from './users.ts';

/** `POST register`: username, password twice, and an email or phone proven by a `register` code. */
export function registerRegisterRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/user/register',
    config: { rateLimit: perAddress('register', LIMITS.registerPerAddress) },
    tags: ['account'],
    summary: 'Create an account (when the login settings allow registration)',
    isPublic: true,
    // Closed registration is a 403 whatever the body holds.
    access: async () => {
      const settings = await getSettings(db, 'login');
      if (!settings.registration) throw new AppError(403, 'auth.registration_closed');
    },
    body: registerSchema,
    responses: { 200: tokenSchema },
    handler: async ({ body, request, reply }) => {
      if (body.email && body.phone) throw AppError.validation({ phone: ['auth.one_contact'] });
      if (!isAcceptablePassword(body.password, { identities: [body.username, body.email, body.phone] })) {
        throw AppError.validation({ password: ['validation.password_format'] });
      }
      // The code is checked before anything is said about taken values: until it has proven the address, a
      // taken and a new username or address get the same answer, so the form never tells who has an account.
      // (A proven caller then learns that a username is taken, as the sign-up form must say.)
      const target = body.email
        ? { channel: 'email' as const, to: body.email, scene: 'register' as const }
        : { channel: 'sms' as const, to: body.phone!, scene: 'register' as const };
      if (!(await consumeCode(db, { target, code: body.captcha }))) {
        throw AppError.validation({ captcha: ['auth.captcha_invalid'] });
      }
      const taken = await takenFields(db, body);
      if (taken[0]) throw AppError.conflict(taken[0], request.t(`auth.fields.${taken[0]}`));

      const passwordHash = await hashPassword(body.password);
      let userId: string;
      try {
        userId = await insertUser(db, {
          username: body.username,
          name: body.username,
          email: body.email ?? null,
          phone: body.phone ?? null,
          password_hash: passwordHash,
        });
      } catch (error) {
        // A concurrent registration took the name between the check and the insert.
        if ((error as { code?: string }).code === '23505') {
          const field = (await takenFields(db, body))[0] ?? 'username';
          throw AppError.conflict(field, request.t(`auth.fields.${field}`));
        }
        throw error;
      }
      const token = await openSession(db, {
        userId,
        remember: false,
        client: clientOf(request),
        action: 'auth.register',
        changes: { username: body.username, channel: target.channel },
      });
      // Registering signs in: this browser is a known device of the new account (device.ts).
      await rememberDevice(db, { request, reply, userId });
      return ok(token);
    },
  });
}
