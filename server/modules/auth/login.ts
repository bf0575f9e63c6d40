import { loginSchema, tokenSchema } from '../../../schemas/auth.ts';
import { ok } from '../../core/envelope.ts';
import { validate } from '../../core/validate.ts';
import { answerJson, inputJson, NULL_ANSWER } from '../../core/openapi.ts';
import { requireUser } from '../../core/principal.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { readDevice, rememberDevice } from './device.ts';
import { LIMITS } from './limits.ts';
import { signInWithPassword, signOut } from './session.ts';

/** `POST login` and `POST logout`: parse, call the operation (session.ts), reply. */
export function registerLoginRoutes({ app, db }: AuthScope): void {
  app.post(
    '/api/v1/user/login',
    {
      config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
      schema: {
        tags: ['account'],
        summary: 'Sign in with a username, email or phone number and a password',
        description:
          'A success sets the HttpOnly device cookie `login_device` for the account: a browser holding it ' +
          'has its own limit of failed sign-ins instead of the per-account ceiling.',
        security: [],
        body: inputJson(loginSchema),
        response: { 200: answerJson(tokenSchema) },
      },
    },
    async (request, reply) => {
      const body = validate(loginSchema, request.body);
      const { userId, ...token } = await signInWithPassword(db, {
        identifier: body.username,
        password: body.password,
        remember: body.remember,
        client: clientOf(request),
        device: readDevice(request),
      });
      // This browser is now a known device of the account (its own failure window, not the ceiling).
      await rememberDevice(db, { request, reply, userId });
      return ok(token);
    },
  );

  app.post(
    '/api/v1/user/logout',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign out: revokes the calling token on the server',
        response: { 200: NULL_ANSWER },
      },
    },
    async (request) => {
      const principal = await requireUser(request);
      await signOut(db, { userId: principal.userId, tokenId: principal.tokenId, client: clientOf(request) });
      return ok(null);
    },
  );
}
