import type { ResourceHooksTable } from '../../engine/hooks.ts';
import type { AppModule } from '../../core/app-module.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { departmentHooks } from './department-hooks.ts';
import { registerMenuRoutes } from './menus.ts';
import { roleHooks } from './role-hooks.ts';
import { staffHooks } from './staff-hooks.ts';
import { registerInvitationSendRoute } from './invitation-send.ts';
import { registerDepartmentTreeRoute } from './tree.ts';
import { registerUserInfoRoute } from './user-info.ts';
import { userHooks } from './user-hooks.ts';

/**
 * The rules of the people resources, run inside the engine's write paths (create, update, delete, import)
 * and reads. Passed to the engine where the app is composed (server/modules/index.ts).
 */
export const peopleResourceHooks: ResourceHooksTable = {
  departments: departmentHooks,
  roles: roleHooks,
  staff: staffHooks,
  users: userHooks,
};

/**
 * People and access (issue 5): the settings menu call, the department tree, joining through an
 * invitation, re-issuing invitations, sending them by mail or SMS and sign-in history. The collections themselves (users, staff,
 * roles, departments) are engine resources (resources/*.ts) with `peopleResourceHooks`.
 */
export const peopleModule: AppModule = {
  name: 'people',
  async register(app, ctx) {
    const { db, config } = ctx;
    registerMenuRoutes(app);
    registerUserInfoRoute(app);
    registerDepartmentTreeRoute(app, db);
    registerAccountRoutes(app, db, config.publicOrigin);
    await registerInvitationSendRoute(app, ctx);
  },
};
