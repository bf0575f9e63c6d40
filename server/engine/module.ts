import multipart from '@fastify/multipart';
import type { Resource } from '../../resources/define.ts';
import type { Page } from '../../resources/define-page.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import type { AppModule } from '../core/app-module.ts';
import { createCsvJobs } from './csv/jobs.ts';
import type { ResourceHooksTable } from './hooks.ts';
import { registerExplainRoute } from './explain.ts';
import { registerSearchRoute } from './search.ts';
import { registerResourceRoutes } from './routes.ts';
import { registerUndoRoute } from './undo-route.ts';
import { registerAnchors } from './list/anchors.ts';
import { addServedPages, addServedResources } from './served.ts';
import { migrationProblems } from './schema/snapshot.ts';
import { createHookServices, withHookRuntime } from './hook-runtime.ts';
import { outboxQueue, outboxSweepQueue } from './outbox.ts';

/**
 * The generic resource router: mounts the contract's routes for every resource in `resources`, after
 * checking that each has a migration matching its schema (the server refuses to start otherwise, naming
 * the resource and the command to run). Example (tests):
 * `createResourcesModule({ resources: fixtureResources, migrationsDir: 'tests/fixtures/migrations' })`
 */
export function createResourcesModule({
  resources,
  hooks = {},
  migrationsDir = MIGRATIONS_DIR,
  pages = [],
}: {
  resources: readonly Resource[];
  /** The hooks the domain modules declare for their resources, by resource name (hooks.ts). */
  hooks?: ResourceHooksTable;
  migrationsDir?: string;
  /** Custom pages besides resources/pages.ts (a fixture's): their permissions join the menu and the roles. */
  pages?: readonly Page[];
}): AppModule {
  return {
    name: 'resources',
    async register(app, ctx) {
      const problems = migrationProblems(resources, migrationsDir);
      if (problems.length)
        throw new Error(`Resource migrations are missing or stale:\n${problems.join('\n')}`);
      // Their menu pages and permission names (schemas/permissions.ts settingsMenu).
      addServedResources(resources);
      addServedPages(pages);
      // Large CSV exports/imports as jobs; the queues are worked once pg-boss starts (jobs module).
      const jobs = () => (app.hasDecorator('jobs') ? app.jobs : null);
      // Hooks get the services and an after-commit stage through the database they write with (hook-runtime.ts).
      const log = ctx.log.child({ module: 'hooks' });
      const db = withHookRuntime(ctx.db, { services: createHookServices({ log, jobs }), log });
      const csvJobs = createCsvJobs({
        db,
        config: ctx.config,
        storage: ctx.storage,
        registry: resources,
        hooks,
        jobs,
      });
      app.addHook('onReady', async () => {
        for (const queue of csvJobs.queues) await jobs()?.work(queue);
        // Mail hooks send (outbox.ts), worked once pg-boss runs.
        await jobs()?.work(outboxQueue({ db: ctx.db, config: ctx.config }));
        // Mail no job carries (written while pg-boss was down, retries spent) is queued again (outbox.ts).
        await jobs()?.work(outboxSweepQueue({ db: ctx.db, jobs, log }));
      });
      registerExplainRoute(app, { db: ctx.db });
      // GET v1/search over these resources (the command palette).
      registerSearchRoute(app, { db: ctx.db, resources, hooks });
      // Undo of a bulk call or an import (undo.ts), over this module's resources.
      registerUndoRoute(app, {
        db,
        registry: resources,
        hooks,
        publicOrigin: ctx.config.publicOrigin,
      });
      // Deep pages by number start from remembered positions, forgotten when their table changes.
      registerAnchors(app, ctx.db, { afterListen: ctx.startsAfterListen });
      // Encapsulated, so the multipart parser (CSV import) applies to these routes only.
      await app.register(async (scope) => {
        await scope.register(multipart, {
          limits: { files: 1, fileSize: ctx.config.bodyLimit * 50, fields: 10 },
        });
        for (const resource of resources)
          registerResourceRoutes(scope, {
            db,
            resource,
            registry: resources,
            hooks,
            csvJobs,
            publicOrigin: ctx.config.publicOrigin,
          });
      });
    },
  };
}
