import rateLimit from '@fastify/rate-limit';
import { createDbRateLimitStore } from '../../credentials/rate-limit-store.ts';
import type { AppModule } from '../../core/app-module.ts';
import { rateLimited } from '../auth/index.ts';
import { registerOidcRoutes } from './routes.ts';

export { purgeOidcRows } from './store.ts';
export { publicProviders } from './settings.ts';

/** Sign-in through OpenID Connect providers (issue 31, item 4; openid-client). */
export const oidcModule: AppModule = {
  name: 'oidc',
  // The ticket rides on `/login?oidc_ticket=` (the app's page, served by the same server); code and state of
  // the callback are redacted by every logger already.
  sensitiveQuery: ['oidc_ticket'],
  async register(app, ctx) {
    // Its own encapsulated scope with the shared, database-backed rate-limit store, as the account routes.
    await app.register(async (scope) => {
      await scope.register(rateLimit, {
        global: false,
        store: createDbRateLimitStore(ctx.db),
        keyGenerator: (request) => request.ip,
        errorResponseBuilder: (_request, context) => rateLimited(context.ttl),
      });
      registerOidcRoutes({ ...ctx, app: scope });
    });
  },
};
