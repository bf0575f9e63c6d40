import type { AppModule } from '../modules/types.ts';

/** The generic resource router: mounts the contract's routes for every registered resource (issue 3). */
export const resourcesModule: AppModule = {
  name: 'resources',
  register() {},
};
