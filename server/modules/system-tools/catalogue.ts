import type { Resource } from '../../../resources/define.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';

/**
 * A feature module as the Modules page shows it: a group of API paths and settings pages that can be
 * switched off together. `core` modules cannot be disabled. Titles and descriptions are locale keys
 * (`system.modules.items.<name>.title|description`); a developer's own module (a resource declared with
 * `module: 'shop'`) falls back to its name.
 */
export interface ModuleInfo {
  name: string;
  isCore: boolean;
  /** API path prefixes after `/api/` (longest prefix wins across modules). */
  paths: string[];
  /** Menu permission names it owns (hidden while disabled). */
  menus: string[];
}

/** The built-in modules. Everything not listed (sign-in, profile, menus, events, dashboard) is core. */
export const BUILT_IN_MODULES: readonly ModuleInfo[] = [
  {
    name: 'users',
    isCore: true,
    paths: ['v1/user'],
    menus: [PERMISSION.usersStaff, PERMISSION.usersRoles, PERMISSION.usersDepartments, PERMISSION.usersUsers],
  },
  {
    name: 'settings',
    isCore: true,
    paths: ['v1/settings', 'v1/system/menus', 'v1/system/modules'],
    menus: [PERMISSION.settingsGeneral, PERMISSION.settingsModules],
  },
  {
    name: 'dictionaries',
    isCore: false,
    paths: ['v1/dictionary'],
    menus: [PERMISSION.settingsDictionaries],
  },
  { name: 'files', isCore: false, paths: ['v1/resources/assets'], menus: [PERMISSION.settingsResources] },
  { name: 'activities', isCore: false, paths: ['v1/user/logs'], menus: [PERMISSION.usersActivities] },
  { name: 'wechat', isCore: false, paths: ['v1/wechat'], menus: [] },
  {
    name: 'system',
    isCore: false,
    paths: ['v1/system/monitor', 'v1/system/nodes', 'v1/system/logs', 'v1/system/tasks', 'v1/system/jobs'],
    menus: [PERMISSION.systemMonitor, PERMISSION.systemTasks, PERMISSION.systemJobs, PERMISSION.systemLogs],
  },
];

/**
 * The built-in modules plus one per module name the resources declare (`defineResource({ module })`), each
 * owning its resources' endpoints and permission pages. Resources of a built-in module add to it.
 */
export function moduleCatalogue(resources: readonly Resource[]): ModuleInfo[] {
  const byName = new Map(
    BUILT_IN_MODULES.map((m) => [m.name, { ...m, paths: [...m.paths], menus: [...m.menus] }]),
  );
  for (const resource of resources) {
    if (resource.module === 'core') continue;
    let info = byName.get(resource.module);
    if (!info) {
      info = { name: resource.module, isCore: false, paths: [], menus: [] };
      byName.set(resource.module, info);
    }
    if (!info.paths.includes(resource.endpoint)) info.paths.push(resource.endpoint);
    if (!info.menus.includes(resource.permission)) info.menus.push(resource.permission);
  }
  return [...byName.values()];
}

/** The module owning an API path (`/api/v1/wechat/...`), by longest prefix; null for core paths. */
export function moduleOfPath(catalogue: readonly ModuleInfo[], url: string): ModuleInfo | null {
  const pathname = (url.split('?')[0] ?? '').replace(/^\/api\//, '');
  let best: ModuleInfo | null = null;
  let bestLength = -1;
  for (const info of catalogue) {
    for (const prefix of info.paths) {
      const isMatch = pathname === prefix || pathname.startsWith(`${prefix}/`);
      if (isMatch && prefix.length > bestLength) {
        best = info;
        bestLength = prefix.length;
      }
    }
  }
  return best;
}
