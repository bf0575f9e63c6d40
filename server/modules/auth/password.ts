import { passwordChangeSchema, resetSchema } from '../../../schemas/auth.ts';
import { consumeCode } from '../../credentials/codes.ts';
import { hashPassword, isAcceptablePassword, verifyPassword } from '../../credentials/password.ts';
import { clearWindow } from '../../credentials/rate-limit-store.ts';
import { revokeTokens } from '../../credentials/tokens.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser } from '../../core/principal.ts';
import { NOW } from '../../engine/system-access.ts';
import { route } from '../../core/route.ts';
import { notifyAdminReset } from '../delivery-notice.ts';
import { recordActivity } from './activity.ts';
import { clientOf, perAddress, type AuthScope } from './context.ts';
import { deviceWindowKey, readDevice } from './device.ts';
import { accountWindowKey, countPasswordAttempt, passwordAttemptSucceeded } from './session.ts';
import { LIMITS } from './limits.ts';
import { findUserByAddress, findUserById, updateUser } from './users.ts';

/** `POST reset` (forgotten password, by code) and `POST password` (change, signed in). */
export function registerPasswordRoutes({ app, db, config }: AuthScope): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/user/reset',
    config: { rateLimit: perAddress('reset', LIMITS.resetPerAddress) },
    tags: ['account'],
    summary: 'Set a new password with a code sent to the account email or phone; revokes every token',
    isPublic: true,
    body: resetSchema,
    responses: { 200: null },
    handler: async ({ body, request }) => {
      if (!isAcceptablePassword(body.password, { identities: [body.to] })) {
        throw AppError.validation({ password: ['validation.password_format'] });
      }
      const target = { channel: body.channel, to: body.to, scene: 'reset' as const };
      const isCodeRight = await consumeCode(db, { target, code: body.captcha });
      const user = await findUserByAddress(db, body);
      // No code was ever sent to an unknown or disabled account, so all three read as "wrong code".
      if (!isCodeRight || !user || !user.state)
        throw AppError.validation({ captcha: ['auth.captcha_invalid'] });

      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await updateUser(tx, user.id, { password_hash: passwordHash, updated_at: NOW });
        await revokeTokens(tx, { userId: user.id });
      });
      // The owner proved the address: the account's sign-in ceiling (run up by someone else) ends now, and
      // so does this browser's own window when it is a device of the account (its owner's typos).
      await clearWindow(db, accountWindowKey(`user:${user.id}`));
      const device = readDevice(request);
      if (device) await clearWindow(db, deviceWindowKey(`user:${user.id}`, device.id));
      await recordActivity(db, {
        client: clientOf(request),
        action: 'auth.password_reset',
        operatorId: user.id,
        subjectId: user.id,
        changes: { channel: body.channel },
      });
      // An administrator hears of it at the account's email whichever channel the code went to (issue 27).
      notifyAdminReset(
        { db, config, log: request.log },
        { userId: user.id, channel: body.channel, ip: request.ip, locale: request.locale },
      );
      return ok(null);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/password',
    config: { rateLimit: perAddress('password', LIMITS.passwordPerAddress) },
    tags: ['account'],
    summary: "Change the signed-in user's password; revokes the user's other tokens",
    description:
      'The old password is checked in the same windows as sign-in: 429 past the per-account ceiling ' +
      "(or, on a device holding the account's device cookie, past that device's own limit).",
    access: requireUser,
    body: passwordChangeSchema,
    responses: { 200: null },
    handler: async ({ body, principal, request }) => {
      const user = await findUserById(db, principal.userId);
      if (!user) throw AppError.unauthenticated();
      // Counted with the account's sign-ins (ceiling or known device's window), whichever address asks,
      // so a stolen session cannot try old passwords faster than a stranger at the sign-in form.
      const attempt = await countPasswordAttempt(db, {
        user,
        client: clientOf(request),
        device: readDevice(request),
        method: 'password_change',
      });
      if (!(await verifyPassword(user.password_hash, body.old_password))) {
        throw AppError.validation({ old_password: ['auth.old_password_incorrect'] });
      }
      await passwordAttemptSucceeded(db, attempt);
      if (!isAcceptablePassword(body.password, { identities: [user.username, user.email, user.phone] })) {
        throw AppError.validation({ password: ['validation.password_format'] });
      }
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await updateUser(tx, user.id, { password_hash: passwordHash, updated_at: NOW });
        await revokeTokens(tx, { userId: user.id, exceptTokenId: principal.tokenId });
      });
      await recordActivity(db, {
        client: clientOf(request),
        action: 'auth.password_changed',
        operatorId: user.id,
        subjectId: user.id,
      });
      return ok(null);
    },
  });
}
