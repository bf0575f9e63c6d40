import rateLimit from '@fastify/rate-limit';
import { createDbRateLimitStore } from '../../credentials/rate-limit-store.ts';
import { rateLimited } from '../auth/index.ts';
import type { AppModule } from '../../core/app-module.ts';
import { registerWechatIdentityRoutes } from './identity.ts';
import { registerWechatLoginRoutes } from './login.ts';
import { registerWechatRegisterRoutes } from './register.ts';

export { purgeWechatRows } from './store.ts';
export { isSafePath, isWechatOn } from './session.ts';

/** Sign-in through a WeChat official account (web-page authorisation, snsapi_userinfo): issue 7. */
export const wechatModule: AppModule = {
  name: 'wechat',
  async register(app, ctx) {
    // Its own encapsulated scope with the shared, database-backed rate-limit store.
    await app.register(async (scope) => {
      await scope.register(rateLimit, {
        global: false,
        store: createDbRateLimitStore(ctx.db),
        keyGenerator: (request) => request.ip,
        errorResponseBuilder: (_request, context) => rateLimited(context.ttl),
      });
      const wechatScope = { ...ctx, app: scope };
      registerWechatLoginRoutes(wechatScope);
      registerWechatRegisterRoutes(wechatScope);
      registerWechatIdentityRoutes(wechatScope);
    });
  },
};
