import { ok } from '../../core/envelope.ts';
import { answerJson, NULL_ANSWER } from '../../core/openapi.ts';
import { requireUser } from '../../core/principal.ts';
import { type AuthScope, clientOf } from '../auth/index.ts';
import { unlinkWechat, wechatIdentityOf } from './accounts.ts';
import { BASE } from './login.ts';
import { WECHAT_OFF, wechatIdentityAnswerSchema } from './schemas.ts';

/** `GET identity` and `DELETE identity`: the signed-in user's linked WeChat identity (accounts.ts). */
export function registerWechatIdentityRoutes({ app, db }: AuthScope): void {
  app.get(
    `${BASE}/identity`,
    {
      schema: {
        tags: ['wechat'],
        summary: "The signed-in user's linked WeChat identity (null when none)",
        response: { 200: answerJson(wechatIdentityAnswerSchema) },
      },
    },
    async (request) => {
      const principal = await requireUser(request);
      return ok(await wechatIdentityOf(db, principal.userId));
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
        response: { 200: NULL_ANSWER },
        ...WECHAT_OFF,
      },
    },
    async (request) => {
      const principal = await requireUser(request);
      await unlinkWechat(db, { userId: principal.userId, client: clientOf(request) });
      return ok(null);
    },
  );
}
