import { loginSchema } from '../../../schemas/auth.ts';
import { signInAnswerSchema } from '../../../schemas/mfa.ts';
import { ok } from '../../core/envelope.ts';
import { requireUser } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { readDevice, rememberDevice } from './device.ts';
import { LIMITS } from './limits.ts';
import { signInWithPassword, signOut } from './session.ts';

/** `POST login` and `POST logout`: parse, call the operation (session.ts), reply. */
export function registerLoginRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/user/login',
    config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
    tags: ['account'],
    summary: 'Sign in with a username, email or phone number and a password',
    description:
      'A success sets the HttpOnly device cookie `login_device` for the account: a browser holding it ' +
      'has its own limit of failed sign-ins instead of the per-account ceiling. A user with a second factor ' +
      'gets `{ mfa_required, mfa_token, methods }` instead of a token: finish with `POST v1/user/login/2fa`.',
    isPublic: true,
    body: loginSchema,
    responses: { 200: signInAnswerSchema },
    handler: async ({ body, request, reply }) => {
      const result = await signInWithPassword(db, {
        identifier: body.username,
        password: body.password,
        remember: body.remember,
        client: clientOf(request),
        device: readDevice(request),
      });
      // This browser is now a known device of the account (its own failure window, not the ceiling); with
      // a second factor pending, only once that is done (a stolen password alone earns no device).
      if (result.isSignedIn) await rememberDevice(db, { request, reply, userId: result.userId });
      return ok(result.answer);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/logout',
    tags: ['account'],
    summary: 'Sign out: revokes the calling token on the server',
    access: requireUser,
    responses: { 200: null },
    handler: async ({ principal, request }) => {
      await signOut(db, { userId: principal.userId, tokenId: principal.tokenId, client: clientOf(request) });
      return ok(null);
    },
  });
}
