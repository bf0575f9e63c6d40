import rateLimit from '@fastify/rate-limit';
import { createDbRateLimitStore } from '../../credentials/rate-limit-store.ts';
import type { AppModule } from '../../core/app-module.ts';
import { registerApiTokenRoutes } from './api-tokens.ts';
import { registerCaptchaRoutes } from './captcha.ts';
import { registerLoginRoutes } from './login.ts';
import { registerMfaRoutes } from './mfa-routes.ts';
import { registerPasskeyRoutes } from './passkey-routes.ts';
import { rateLimited } from './limits.ts';
import { registerPasswordRoutes } from './password.ts';
import { registerProfileRoutes } from './profile.ts';
import { registerRegisterRoutes } from './register.ts';
import { registerSessionRoutes } from './sessions.ts';

export { purgeAuthRows } from '../../credentials/purge.ts';
// The public face that other ways of signing in (wechat) build on: sessions, account lookups, the limits,
// the activity log and the caller. Other modules import auth only from here (eslint.config.js).
export { renderCodeMail } from './delivery.ts';
export { recordActivity, type Client } from './activity.ts';
export { clientOf, perAddress, type AuthScope } from './context.ts';
export { readDevice, rememberDevice, type DeviceCookie } from './device.ts';
export { LIMITS, rateLimited } from './limits.ts';
export { finishSignIn, type SignInResult } from './mfa.ts';
export { countPasswordAttempt, openSession, passwordAttemptSucceeded } from './session.ts';
export { findUserById, findUserByIdentifier, insertUser, takenFields } from './users.ts';

/** Sign-in, registration, codes, password reset and the account calls (issue 4). */
export const authModule: AppModule = {
  name: 'auth',
  async register(app, ctx) {
    // An encapsulated scope, so the rate-limit plugin (and its hooks) touch only the account routes.
    await app.register(async (scope) => {
      await scope.register(rateLimit, {
        global: false,
        store: createDbRateLimitStore(ctx.db),
        keyGenerator: (request) => request.ip,
        errorResponseBuilder: (_request, context) => rateLimited(context.ttl),
      });
      const authScope = { ...ctx, app: scope };
      registerLoginRoutes(authScope);
      registerMfaRoutes(authScope);
      registerPasskeyRoutes(authScope);
      registerCaptchaRoutes(authScope);
      registerRegisterRoutes(authScope);
      registerPasswordRoutes(authScope);
      registerProfileRoutes(authScope);
      registerSessionRoutes(authScope);
      registerApiTokenRoutes(authScope);
    });
  },
};
