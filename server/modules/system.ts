import { z } from 'zod';
import { ok } from '../core/envelope.ts';
import { AppError } from '../core/errors.ts';
import { answerJson } from '../core/openapi.ts';
import { getSettings } from '../core/settings.ts';
import type { AppModule } from '../core/app-module.ts';
import { isWechatOn } from './wechat/index.ts';

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
    cookie_domain: z.string().describe('Token cookie scope: parent (domain), host (host only) or a domain'),
  }),
});

/** Start-up configuration (`GET /api/v1`) and health checks. */
export const systemModule: AppModule = {
  name: 'system',
  register(app, { db, config }) {
    app.get(
      '/api/v1',
      {
        schema: {
          tags: ['system'],
          summary: 'Start-up status and public configuration',
          security: [],
          response: { 200: answerJson(startupSchema) },
        },
      },
      async () => {
        const [site, languages, currency, country, wechat] = await Promise.all([
          getSettings(db, 'site'),
          getSettings(db, 'languages'),
          getSettings(db, 'currency'),
          getSettings(db, 'country'),
          isWechatOn(db),
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
            cookie_domain: config.cookieDomain,
          },
        });
      },
    );

    app.get(
      '/api/health',
      {
        schema: {
          tags: ['system'],
          summary: 'Liveness',
          security: [],
          response: { 200: answerJson(z.object({ status: z.literal('ok') })) },
        },
      },
      async () => ok({ status: 'ok' }),
    );

    app.get(
      '/api/health/ready',
      {
        schema: {
          tags: ['system'],
          summary: 'Readiness: the database answers',
          security: [],
          response: { 200: answerJson(z.object({ status: z.literal('ready') })) },
        },
      },
      async () => {
        try {
          await db.query('SELECT 1');
        } catch {
          throw new AppError(503, 'errors.unavailable');
        }
        return ok({ status: 'ready' });
      },
    );
  },
};
