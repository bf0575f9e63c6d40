import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { PERMISSION, actionPermission } from '../../../schemas/permissions.ts';
import { actorOf } from '../../core/activity.ts';
import { writeActorActivity } from '../../engine/activity-log.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { permission, route } from '../../core/route.ts';
import type { Db } from '../../db/index.ts';
import type { ModuleInfo } from './catalogue.ts';
import { disabledModules, setModuleState } from './module-gate.ts';

// A name that is no module's is a 404.
const nameParams = z.object({ name: z.string().regex(/^[a-z][a-z0-9_-]*$/) });
/** A feature module with its state, as these routes answer it. */
const moduleInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  core: z.boolean().optional(),
  enabled: z.boolean(),
  paths: z.array(z.string()).optional(),
  menus: z.array(z.string()).describe("the menu ids the module's pages have (hidden while disabled)"),
});

/**
 * `GET v1/system/modules` (the catalogue with each module's state), `POST v1/system/modules/<name>/enable`
 * and `.../disable` (`system.settings.modules.update`; a core module answers 422).
 */
export function registerModuleRoutes(app: FastifyInstance, db: Db, catalogue: readonly ModuleInfo[]): void {
  const toWire = (request: FastifyRequest, info: ModuleInfo, disabled: ReadonlySet<string>) => ({
    name: info.name,
    title: translated(request, `system.modules.items.${info.name}.title`, info.name),
    description: translated(request, `system.modules.items.${info.name}.description`, ''),
    core: info.isCore,
    enabled: info.isCore || !disabled.has(info.name),
    paths: info.paths.map((p) => `/api/${p}`),
    menus: info.menus,
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/system/modules',
    tags: ['system'],
    summary: 'Feature modules with their description and state',
    access: permission(PERMISSION.settingsModules),
    responses: { 200: z.array(moduleInfoSchema) },
    handler: async ({ request }) => {
      const disabled = await disabledModules(db);
      return ok(catalogue.map((info) => toWire(request, info, disabled)));
    },
  });

  for (const action of ['enable', 'disable'] as const) {
    route(app, {
      method: 'POST',
      url: `/api/v1/system/modules/:name/${action}`,
      tags: ['system'],
      summary:
        action === 'enable'
          ? 'Enable a module (its menus and API come back)'
          : 'Disable a module: its menus hide and its API answers 404 (core modules: 422)',
      access: permission(actionPermission(PERMISSION.settingsModules, 'update')),
      params: nameParams,
      responses: { 200: moduleInfoSchema },
      handler: async ({ params: { name }, principal, request }) => {
        const info = catalogue.find((m) => m.name === name);
        if (!info) throw AppError.notFound();
        if (info.isCore)
          throw new AppError(422, 'system.modules.errors.core', {
            fields: { name: ['system.modules.errors.core'] },
          });
        await setModuleState(db, name, action === 'enable');
        await writeActorActivity(db, actorOf(request, principal.userId), {
          action: `modules.${action}`,
          subjectType: 'modules',
          subjectId: name,
        });
        return ok(toWire(request, info, await disabledModules(db)));
      },
    });
  }
}

function translated(request: FastifyRequest, key: string, fallback: string): string {
  const text = request.t(key);
  return text === key ? fallback : text;
}
