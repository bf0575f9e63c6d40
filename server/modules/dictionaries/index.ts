import * as z from 'zod';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireStaff } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { loadDictionary } from '../../engine/dictionaries.ts';
import type { AppModule } from '../../core/app-module.ts';

/**
 * `GET /api/v1/dictionary/options/<slug>`: the enabled entries of one dictionary as `{ label, value }`, for
 * any staff member. A field declared with `dictionary('<slug>')` is a select on every form and filter, so its
 * options cannot require the dictionaries page permission (editing dictionaries still does).
 */
export const dictionariesModule: AppModule = {
  name: 'dictionaries',
  register(app, { db }) {
    route(app, {
      method: 'GET',
      url: '/api/v1/dictionary/options/:slug',
      tags: ['dictionaries'],
      summary: 'Enabled entries of one dictionary (select options)',
      access: requireStaff,
      params: z.object({ slug: z.string().max(60) }),
      responses: {
        200: z.object({
          slug: z.string(),
          data: z.array(z.object({ label: z.string(), value: z.string() })),
        }),
      },
      handler: async ({ params: { slug }, request }) => {
        const entries = await loadDictionary(db, slug, request.locale);
        if (!entries) throw AppError.notFound();
        return ok({ slug, data: [...entries].map(([value, label]) => ({ label, value })) });
      },
    });
  },
};
