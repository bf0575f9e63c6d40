import { loginSchema } from '../../../schemas/auth.ts';
import { verifyPassword } from '../../auth/password.ts';
import { clearWindow, giveBackHit, hitWindow } from '../../auth/rateLimitStore.ts';
import { issueToken, revokeTokens } from '../../auth/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { validate } from '../../core/http.ts';
import { requireUser } from '../../core/principal.ts';
import { recordActivity } from './activity.ts';
import { perAddress, type AuthScope } from './context.ts';
import { LIMITS, rateLimited } from './limits.ts';
import { tokenResponseSchema } from './openapi.ts';
import { findUserByIdentifier } from './users.ts';

/** What a sign-in window is keyed on when no account matches: the identifier trimmed and lower-cased. */
export function normaliseIdentifier(identifier: string): string {
  return identifier.trim().normalize('NFKC').toLowerCase();
}

/** The key of an account's window across all addresses (`user:<id>` or `name:<identifier>`). */
export function accountWindowKey(account: string): string {
  return `login:account:${account}`;
}

/** `POST login` and `POST logout`. */
export function registerLoginRoutes({ app, db }: AuthScope): void {
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
      const user = await findUserByIdentifier(db, body.username);
      // Windows are keyed on the account (its username, email and phone share them), or on the normalised
      // identifier when no account matches, and counted *before* the password is checked, in one atomic
      // statement each: 25 parallel wrong passwords get exactly `max` checks.
      const account = user ? `user:${user.id}` : `name:${normaliseIdentifier(body.username)}`;
      const windows = [
        { key: `login:fail:${account}|${request.ip}`, windowMs: LIMITS.loginFailures.timeWindow },
        { key: accountWindowKey(account), windowMs: LIMITS.loginPerAccount.timeWindow },
      ];
      const perAddress = await hitWindow(db, windows[0]!);
      const perAccount =
        perAddress.current <= LIMITS.loginFailures.max ? await hitWindow(db, windows[1]!) : null;
      const limited =
        perAddress.current > LIMITS.loginFailures.max
          ? perAddress
          : perAccount && perAccount.current > LIMITS.loginPerAccount.max
            ? perAccount
            : null;
      if (limited) {
        await recordActivity(db, {
          request,
          action: 'auth.login_failed',
          operatorId: null,
          subjectId: user?.id ?? null,
          changes: { reason: perAccount ? 'account_rate_limited' : 'rate_limited' },
        });
        throw rateLimited(limited.ttl);
      }

      // Always hash: an unknown user costs the same argon2 work as a known one (verifyPassword hashes a dummy).
      const isPasswordRight = await verifyPassword(user?.password_hash, body.password);
      if (!user || !isPasswordRight || !user.state) {
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

      // A success gives back its attempt and clears this address's failures.
      await clearWindow(db, windows[0]!.key);
      await giveBackHit(db, windows[1]!.key);
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
