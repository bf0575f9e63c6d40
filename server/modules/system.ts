import * as z from 'zod';
import { ok } from '../core/envelope.ts';
import { AppError } from '../core/errors.ts';
import { route } from '../core/route.ts';
import { getSettings } from '../core/settings.ts';
import type { AppModule } from '../core/app-module.ts';
import { isWechatOn } from './wechat/index.ts';
import { publicProviders } from './oidc/index.ts';

/** What `GET /api/v1` answers: whether the server is ready, and the configuration the client starts with. */
const startupSchema = z.object({
  status: z.enum(['ready', 'maintenance']),
  config: z.object({
    site_name: z.string(),
    site_logo: z.string().describe('Logo address for the sign-in card; empty = none'),
    languages: z.array(z.string()),
    currency: z.string(),
    decimals: z.number().int(),
    country: z.string(),
    wechat: z.boolean().describe('WeChat sign-in is on (show its button)'),
    oidc_providers: z
      .array(z.object({ id: z.string(), label: z.string() }))
      .describe('OpenID Connect providers: a button each on the sign-in page'),
    cookie_domain: z.string().describe('Token cookie scope: parent (domain), host (host only) or a domain'),
  }),
});

/** Start-up configuration (`GET /api/v1`) and health checks. */
export const systemModule: AppModule = {
  name: 'system',
  register(app, { db, config }) {
    route(app, {
      method: 'GET',
      url: '/api/v1',
      tags: ['system'],
      summary: 'Start-up status and public configuration',
      isPublic: true,
      responses: { 200: startupSchema },
      handler: async () => {
        const [site, languages, currency, country, wechat, oidcProviders] = await Promise.all([
          getSettings(db, 'site'),
          getSettings(db, 'languages'),
          getSettings(db, 'currency'),
          getSettings(db, 'country'),
          isWechatOn(db),
          publicProviders(db),
        ]);
        return ok({
          status: 'ready' as const,
          config: {
            site_name: site.site_name,
            site_logo: site.site_logo,
            languages: languages.languages,
            currency: currency.currency,
            decimals: currency.decimals,
            country: country.country,
            wechat,
            oidc_providers: oidcProviders,
            cookie_domain: config.cookieDomain,
          },
        });
      },
    });

    route(app, {
      method: 'GET',
      url: '/api/health',
      tags: ['system'],
      summary: 'Liveness',
      isPublic: true,
      // A few bytes, asked every few seconds by health checks (and the first answer a start gives:
      // compression's first check of a Fetch Response payload loads Node's fetch, about 0.2 s of CPU).
      compress: false,
      responses: { 200: z.object({ status: z.literal('ok') }) },
      handler: async () => ok({ status: 'ok' }),
    });

    route(app, {
      method: 'GET',
      url: '/api/health/ready',
      tags: ['system'],
      summary: 'Readiness: the database answers',
      isPublic: true,
      compress: false,
      responses: { 200: z.object({ status: z.literal('ready') }) },
      handler: async () => {
        try {
          await db.query('SELECT 1');
        } catch {
          throw new AppError(503, 'errors.unavailable');
        }
        return ok({ status: 'ready' });
      },
    });
  },
};
