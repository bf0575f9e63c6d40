import type { AppModule } from '../../core/app-module.ts';
import type { ResourceHooksTable } from '../../engine/hooks.ts';
import { registerViewRoutes } from './routes.ts';

/**
 * Saved views of the generated lists (issue 32, item 1): `v1/user/views` and the pinned views' counts.
 * `hooks` are the resource hooks the engine was composed with, so a view's query is parsed and counted with
 * the same custom filters as the list. Example: `createViewsModule({ hooks: resourceHooks })`.
 */
export function createViewsModule({ hooks }: { hooks: ResourceHooksTable }): AppModule {
  return {
    name: 'views',
    register(app, ctx) {
      registerViewRoutes(app, { db: ctx.db, hooks });
    },
  };
}
