import { activitiesModule } from './activities/index.ts';
import { authModule } from './auth/index.ts';
import { dictionariesModule } from './dictionaries/index.ts';
import { eventsModule } from '../events/module.ts';
import { resourcesModule } from '../engine/module.ts';
import { filesModule } from './files/index.ts';
import { jobsModule } from './jobs/index.ts';
import { peopleModule } from './people/index.ts';
import { settingsModule } from './settings.ts';
import { systemModule } from './system.ts';
import { systemToolsModule } from './system-tools/index.ts';
import type { AppModule } from '../core/app-module.ts';
import { wechatModule } from './wechat/index.ts';

/** Every feature module, in registration order. Add a module by importing it and listing it here. */
export const modules: AppModule[] = [
  systemModule,
  authModule,
  settingsModule,
  resourcesModule,
  wechatModule,
  peopleModule,
  filesModule,
  activitiesModule,
  dictionariesModule,
  eventsModule,
  systemToolsModule,
  jobsModule,
];
