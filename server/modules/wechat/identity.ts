import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser } from '../../core/principal.ts';
import { recordActivity } from '../auth/activity.ts';
import type { AuthScope } from '../auth/context.ts';
import { findUserById } from '../auth/users.ts';
import { BASE } from './login.ts';
import { identityResponseSchema } from './openapi.ts';
import { isWechatOn } from './session.ts';
import { findIdentityOfUser } from './store.ts';

/** `GET identity` and `DELETE identity`: the signed-in user's linked WeChat identity. */
export function registerWechatIdentityRoutes({ app, db }: AuthScope): void {
  app.get(
    `${BASE}/identity`,
    {
      schema: {
        tags: ['wechat'],
        summary: "The signed-in user's linked WeChat identity (null when none)",
        response: { 200: identityResponseSchema },
      },
    },
    async (request) => {
      const principal = await requireUser(request);
      const [identity, user, enabled] = await Promise.all([
        findIdentityOfUser(db, principal.userId),
        findUserById(db, principal.userId),
        isWechatOn(db),
      ]);
      return ok({
        enabled,
        has_password: Boolean(user?.password_hash),
        identity: identity
          ? {
              nickname: identity.nickname,
              avatar: identity.avatar_url,
              linked_at: identity.created_at.toISOString(),
            }
          : null,
      });
    },
  );

  app.delete(
    `${BASE}/identity`,
    {
      schema: {
        tags: ['wechat'],
        summary: 'Unlink the WeChat identity of the signed-in user',
        description:
          '404 when none is linked; 422 when the account has no password (it could not sign in again).',
      },
    },
    async (request) => {
      const principal = await requireUser(request);
      const identity = await findIdentityOfUser(db, principal.userId);
      if (!identity) throw AppError.notFound();
      const user = await findUserById(db, principal.userId);
      if (!user?.password_hash) throw new AppError(422, 'auth.wechat.errors.unlink_needs_password');
      await db.query('DELETE FROM wechat_identities WHERE id = $1', [identity.id]);
      await recordActivity(db, {
        request,
        action: 'auth.wechat_unlink',
        operatorId: principal.userId,
        subjectId: principal.userId,
      });
      return ok(null);
    },
  );
}
