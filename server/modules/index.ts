import { activitiesModule } from './activities/index.ts';
import { authModule } from './auth/index.ts';
import { dictionariesModule } from './dictionaries/index.ts';
import { eventsModule } from '../events/module.ts';
import { resources } from '../../resources/index.ts';
import type { ResourceHooksTable } from '../engine/hooks.ts';
import { createResourcesModule } from '../engine/module.ts';
import { filesModule } from './files/index.ts';
import { createJobsModule } from './jobs/index.ts';
import { peopleModule, peopleResourceHooks } from './people/index.ts';
import { settingsModule } from './settings.ts';
import { mailPreviewModule } from './mail-preview.ts';
import { systemModule } from './system.ts';
import { systemToolsModule } from './system-tools/index.ts';
import { maintenanceTaskHandlers, type TaskHandler } from './tasks/index.ts';
import type { AppModule } from '../core/app-module.ts';
import { wechatModule } from './wechat/index.ts';
import { oidcModule } from './oidc/index.ts';
import { createViewsModule } from './views/index.ts';

/**
 * The hooks of every resource that has some, declared by the module that owns it (engine/hooks.ts). Add a
 * module's table here; the engine gets nothing by import side effects.
 */
export const resourceHooks: ResourceHooksTable = { ...peopleResourceHooks };

/** The handlers a scheduled task may call, declared by the modules that own them (tasks/handlers.ts). */
export const taskHandlers: readonly TaskHandler[] = [...maintenanceTaskHandlers];

/** The generic resource router: every resource of resources/index.ts, with their hooks. */
const resourcesModule = createResourcesModule({ resources, hooks: resourceHooks });

/** Every feature module, in registration order. Add a module by importing it and listing it here. */
export const modules: AppModule[] = [
  systemModule,
  authModule,
  settingsModule,
  resourcesModule,
  wechatModule,
  oidcModule,
  peopleModule,
  filesModule,
  activitiesModule,
  dictionariesModule,
  eventsModule,
  systemToolsModule,
  createJobsModule({ taskHandlers }),
  createViewsModule({ hooks: resourceHooks }),
  mailPreviewModule,
];
