import { loginSchema } from '../../../schemas/auth.ts';
import { verifyPassword } from '../../auth/password.ts';
import { clearWindow, peekWindow } from '../../auth/rateLimitStore.ts';
import { issueToken, revokeTokens } from '../../auth/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { validate } from '../../core/http.ts';
import { requireUser } from '../../core/principal.ts';
import { recordActivity } from './activity.ts';
import { accountKeyOf, hitAccountLimiter, perAddress, type AuthScope } from './context.ts';
import { LIMITS, rateLimited } from './limits.ts';
import { tokenResponseSchema } from './openapi.ts';
import { findUserByIdentifier } from './users.ts';

/** `POST login` and `POST logout`. */
export function registerLoginRoutes({ app, db }: AuthScope): void {
  const failureLimiter = app.createRateLimit({ ...LIMITS.loginFailures, keyGenerator: accountKeyOf });

  app.post(
    '/api/v1/user/login',
    {
      config: { rateLimit: perAddress('login', LIMITS.loginPerAddress) },
      schema: {
        tags: ['account'],
        summary: 'Sign in with a username, email or phone number and a password',
        security: [],
        body: {
          type: 'object',
          required: ['username', 'password'],
          properties: {
            username: { type: 'string' },
            password: { type: 'string' },
            remember: { type: 'boolean' },
          },
        },
        response: { 200: tokenResponseSchema },
      },
    },
    async (request) => {
      const body = validate(loginSchema, request.body);
      // The failure window is per account *and* address: a stranger elsewhere cannot lock the owner out.
      const failureKey = `login:fail:${body.username.toLowerCase()}|${request.ip}`;
      const window = await peekWindow(db, failureKey);
      if (window.current >= LIMITS.loginFailures.max) {
        await recordActivity(db, {
          request,
          action: 'auth.login_failed',
          operatorId: null,
          subjectId: null,
          changes: { reason: 'rate_limited' },
        });
        throw rateLimited(window.ttl);
      }

      const user = await findUserByIdentifier(db, body.username);
      // Always hash: an unknown user costs the same argon2 work as a known one (verifyPassword hashes a dummy).
      const isPasswordRight = await verifyPassword(user?.password_hash, body.password);
      if (!user || !isPasswordRight || !user.state) {
        await hitAccountLimiter(failureLimiter, { request, key: failureKey });
        await recordActivity(db, {
          request,
          action: 'auth.login_failed',
          operatorId: null,
          subjectId: user?.id ?? null,
          // The typed identifier is not stored for unknown accounts: people paste passwords into it.
          changes: { reason: !user ? 'unknown_user' : !isPasswordRight ? 'wrong_password' : 'disabled' },
        });
        throw new AppError(422, 'auth.failed', { fields: { username: ['auth.failed'] } });
      }

      // Most sign-ins had no failures: skip the write then.
      if (window.current > 0) await clearWindow(db, failureKey);
      const userAgent = request.headers['user-agent'];
      const token = await issueToken(db, {
        userId: user.id,
        remember: body.remember,
        ip: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : undefined,
      });
      await db.query('UPDATE users SET last_login_at = now() WHERE id = $1', [user.id]);
      await recordActivity(db, {
        request,
        action: 'auth.login',
        operatorId: user.id,
        subjectId: user.id,
        changes: { remember: body.remember },
      });
      return ok({ access_token: token.accessToken, expires_at: token.expiresAt?.toISOString() ?? null });
    },
  );

  app.post(
    '/api/v1/user/logout',
    { schema: { tags: ['account'], summary: 'Sign out: revokes the calling token on the server' } },
    async (request) => {
      const principal = await requireUser(request);
      await revokeTokens(db, { tokenId: principal.tokenId });
      await recordActivity(db, {
        request,
        action: 'auth.logout',
        operatorId: principal.userId,
        subjectId: principal.userId,
      });
      return ok(null);
    },
  );
}
