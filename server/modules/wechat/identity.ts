import { ok } from '../../core/envelope.ts';
import { requireUser } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { type AuthScope, clientOf } from '../auth/index.ts';
import { unlinkWechat, wechatIdentityOf } from './accounts.ts';
import { BASE } from './login.ts';
import { WECHAT_OFF, wechatIdentityAnswerSchema } from './schemas.ts';

/** `GET identity` and `DELETE identity`: the signed-in user's linked WeChat identity (accounts.ts). */
export function registerWechatIdentityRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'GET',
    url: `${BASE}/identity`,
    tags: ['wechat'],
    summary: "The signed-in user's linked WeChat identity (null when none)",
    access: requireUser,
    responses: { 200: wechatIdentityAnswerSchema },
    handler: async ({ principal }) => ok(await wechatIdentityOf(db, principal.userId)),
  });

  route(app, {
    method: 'DELETE',
    url: `${BASE}/identity`,
    tags: ['wechat'],
    summary: 'Unlink the WeChat identity of the signed-in user',
    description:
      '404 when none is linked; 422 when the account has no password (it could not sign in again).',
    openapi: WECHAT_OFF,
    access: requireUser,
    responses: { 200: null },
    handler: async ({ principal, request }) => {
      await unlinkWechat(db, { userId: principal.userId, client: clientOf(request) });
      return ok(null);
    },
  });
}
