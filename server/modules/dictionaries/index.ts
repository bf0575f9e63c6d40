import { z } from 'zod';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { answerJson, inputJson } from '../../core/openapi.ts';
import { requireStaff } from '../../core/principal.ts';
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
    app.get<{ Params: { slug: string } }>(
      '/api/v1/dictionary/options/:slug',
      {
        schema: {
          tags: ['dictionaries'],
          summary: 'Enabled entries of one dictionary (select options)',
          params: inputJson(z.object({ slug: z.string().max(60) })),
          response: {
            200: answerJson(
              z.object({
                slug: z.string(),
                data: z.array(z.object({ label: z.string(), value: z.string() })),
              }),
            ),
          },
        },
      },
      async (request) => {
        await requireStaff(request);
        const { slug } = request.params;
        const entries = await loadDictionary(db, slug, request.locale);
        if (!entries) throw AppError.notFound();
        return ok({ slug, data: [...entries].map(([value, label]) => ({ label, value })) });
      },
    );
  },
};
