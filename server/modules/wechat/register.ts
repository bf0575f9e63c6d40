import { tokenSchema } from '../../../schemas/auth.ts';
import { ok } from '../../core/envelope.ts';
import { route } from '../../core/route.ts';
import { type AuthScope, clientOf, LIMITS, perAddress, readDevice } from '../auth/index.ts';
import { registerWithTicket } from './accounts.ts';
import { BASE } from './login.ts';
import { WECHAT_OFF } from './schemas.ts';
import { wechatRegisterSchema } from './schemas.ts';

/** `POST register`: with a ticket from `login`, create a new account or link an existing one (accounts.ts). */
export function registerWechatRegisterRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'POST',
    url: `${BASE}/register`,
    config: { rateLimit: perAddress('wechat-register', LIMITS.registerPerAddress) },
    tags: ['wechat'],
    summary: 'Create an account for a WeChat user, or link the WeChat user to an existing account',
    description:
      "With `link`, the existing account's password is checked (the same failure limits as sign-in; " +
      'the ticket dies after 5 wrong passwords). Without it, a new account: username, optional password, ' +
      'optional email or phone with a `register` captcha. 422 for a dead ticket; 409 for a taken value ' +
      'or an account that already has a WeChat identity; 403 when registration is closed.',
    isPublic: true,
    openapi: WECHAT_OFF,
    body: wechatRegisterSchema,
    responses: { 200: tokenSchema },
    handler: async ({ body, request }) => {
      const token = await registerWithTicket(db, {
        body,
        client: clientOf(request),
        device: readDevice(request),
        t: (key) => request.t(key),
      });
      return ok(token);
    },
  });
}
