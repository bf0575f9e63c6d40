import { ok } from '../core/envelope.ts';
import { AppError } from '../core/errors.ts';
import { getSettings } from '../core/settings.ts';
import type { AppModule } from '../core/app-module.ts';
import { isWechatOn } from './wechat/session.ts';

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
          response: {
            200: {
              type: 'object',
              properties: {
                code: { type: 'integer' },
                data: {
                  type: 'object',
                  properties: {
                    status: { type: 'string', enum: ['ready', 'maintenance'] },
                    config: {
                      type: 'object',
                      properties: {
                        site_name: { type: 'string' },
                        site_logo: {
                          type: 'string',
                          description: 'Logo address for the sign-in card; empty = none',
                        },
                        languages: { type: 'array', items: { type: 'string' } },
                        currency: { type: 'string' },
                        decimals: { type: 'integer' },
                        country: { type: 'string' },
                        wechat: { type: 'boolean', description: 'WeChat sign-in is on (show its button)' },
                        cookie_domain: {
                          type: 'string',
                          description: 'Token cookie scope: parent (domain), host (host only) or a domain',
                        },
                      },
                    },
                  },
                },
              },
            },
          },
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

    app.get('/api/health', { schema: { tags: ['system'], summary: 'Liveness', security: [] } }, async () =>
      ok({ status: 'ok' }),
    );

    app.get(
      '/api/health/ready',
      { schema: { tags: ['system'], summary: 'Readiness: the database answers', security: [] } },
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
