/**
 * Permission names and the settings menu tree: the built-in pages are declared here, every resource adds its
 * own page from its declaration (`settingsMenu(resources)`), read by the client (menu, guards, buttons)
 * and by the server (role validation, `GET v1/system/menus`). Titles are locale keys (locales/<lng>/app.json),
 * icons are @mui/icons-material component names so this file stays free of React.
 */

export const PERMISSION = {
  settings: 'system.settings',
  settingsGeneral: 'system.settings.general',
  /** Change where codes, invitations and mail go (SMTP, sender, SMS gateway): dangerous, see `grants`. */
  settingsDelivery: 'system.settings.delivery',
  settingsModules: 'system.settings.modules',
  settingsDictionaries: 'system.settings.dictionaries',
  settingsResources: 'system.settings.resources',
  users: 'system.users',
  usersStaff: 'system.users.staff',
  usersRoles: 'system.users.roles',
  usersDepartments: 'system.users.departments',
  usersActivities: 'system.users.activities',
  usersUsers: 'system.users.users',
  system: 'system.system',
  systemMonitor: 'system.system.monitor',
  systemTasks: 'system.system.tasks',
  systemJobs: 'system.system.jobs',
  systemLogs: 'system.system.logs',
} as const;

export type PermissionName = (typeof PERMISSION)[keyof typeof PERMISSION];

/** Page names allow reading; writing needs `<page>.<action>` (API contract, "Permission names"). */
export const PERMISSION_ACTIONS = ['create', 'update', 'delete', 'export', 'import'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/** Held by a staff member with is_admin 1; passes every check. */
export const WILDCARD_PERMISSION = '*';

export function actionPermission(page: PermissionName, action: PermissionAction): string {
  return `${page}.${action}`;
}

/** Every action a page may declare. */
const ALL_ACTIONS = PERMISSION_ACTIONS;

export interface MenuItem {
  /** Permission name; an item without one is always shown. */
  name?: string;
  /** Locale key of the label. */
  title: string;
  /** @mui/icons-material component name. */
  icon?: string;
  path?: string;
  disabled?: boolean;
  children?: MenuItem[];
  /**
   * A page's actions: the `<page>.<action>` names it really checks, and so the only ones a role may hold and
   * the role editor offers (API contract, Amendments, "General settings"). Omitted on groups.
   */
  actions?: readonly PermissionAction[];
  /** Grantable (role editor, server) but not shown in the menu: a resource declared with `menu: false`. */
  hidden?: boolean;
  /**
   * Names a page grants besides its actions (no page or menu entry of their own), offered by the role editor
   * beside the actions. `dangerous` ones are marked there: they reach as far as an administrator's account.
   */
  grants?: readonly PermissionGrant[];
}

/** A permission name a page offers besides its actions (`MenuItem.grants`). */
export interface PermissionGrant {
  name: string;
  /** Locale key of its label. */
  title: string;
  dangerous?: boolean;
}

/** The settings menu of spec section 2: Settings, User and System groups. */
export const SETTINGS_MENU: readonly MenuItem[] = [
  {
    name: PERMISSION.settings,
    title: 'app.menu.settings',
    icon: 'Settings',
    children: [
      {
        name: PERMISSION.settingsGeneral,
        title: 'app.menu.general',
        icon: 'Tune',
        path: '/settings',
        actions: ['update'],
        // Whoever decides where reset codes are delivered can take over any account (issue 27).
        grants: [
          {
            name: PERMISSION.settingsDelivery,
            title: 'settings.people.roles.grants.delivery',
            dangerous: true,
          },
        ],
      },
      {
        name: PERMISSION.settingsModules,
        title: 'app.menu.modules',
        icon: 'Extension',
        path: '/settings/modules',
        actions: ['update'],
      },
      {
        name: PERMISSION.settingsDictionaries,
        title: 'app.menu.dictionaries',
        icon: 'MenuBook',
        path: '/settings/dictionaries',
        actions: ['create', 'update', 'delete', 'export'],
      },
      {
        name: PERMISSION.settingsResources,
        title: 'app.menu.resources',
        icon: 'Folder',
        path: '/settings/resources',
        actions: ['create', 'delete', 'export'],
      },
    ],
  },
  {
    name: PERMISSION.users,
    title: 'app.menu.users',
    icon: 'People',
    children: [
      {
        name: PERMISSION.usersStaff,
        title: 'app.menu.staff',
        icon: 'Badge',
        path: '/settings/staff',
        actions: ALL_ACTIONS,
      },
      {
        name: PERMISSION.usersRoles,
        title: 'app.menu.roles',
        icon: 'AdminPanelSettings',
        path: '/settings/roles',
        actions: ALL_ACTIONS,
      },
      {
        name: PERMISSION.usersDepartments,
        title: 'app.menu.departments',
        icon: 'AccountTree',
        path: '/settings/departments',
        actions: ALL_ACTIONS,
      },
      {
        name: PERMISSION.usersActivities,
        title: 'app.menu.activities',
        icon: 'History',
        path: '/settings/activities',
        actions: [],
      },
      {
        name: PERMISSION.usersUsers,
        title: 'settings.people.menu.users',
        icon: 'People',
        path: '/settings/users',
        actions: ALL_ACTIONS,
      },
    ],
  },
  {
    name: PERMISSION.system,
    title: 'app.menu.system',
    icon: 'Computer',
    children: [
      {
        name: PERMISSION.systemMonitor,
        title: 'app.menu.monitor',
        icon: 'MonitorHeart',
        path: '/settings/monitor',
        actions: [],
      },
      {
        name: PERMISSION.systemTasks,
        title: 'app.menu.tasks',
        icon: 'Schedule',
        path: '/settings/tasks',
        actions: ['create', 'update', 'delete'],
      },
      {
        name: PERMISSION.systemJobs,
        title: 'app.menu.jobs',
        icon: 'WorkHistory',
        path: '/settings/jobs',
        actions: ['update'],
      },
      {
        name: PERMISSION.systemLogs,
        title: 'app.menu.logs',
        icon: 'Article',
        path: '/settings/logs',
        actions: [],
      },
    ],
  },
];

/**
 * Spec 6: keeps the items whose name passes `can`, filtering children recursively; items without a name are
 * always kept. A parent that fails hides its whole subtree.
 *
 * @example
 * filterMenu(SETTINGS_MENU, (name) => permissions.has(name));
 */
export function filterMenu(items: readonly MenuItem[], can: (name: string) => boolean): MenuItem[] {
  return items
    .filter((item) => item.name === undefined || item.name === '' || can(item.name))
    .map((item) => (item.children ? { ...item, children: filterMenu(item.children, can) } : { ...item }));
}

/** The names the role editor marks as dangerous (`MenuItem.grants`). */
export function dangerousPermissionNames(items: readonly MenuItem[] = SETTINGS_MENU): Set<string> {
  const out = new Set<string>();
  const walk = (list: readonly MenuItem[]) => {
    for (const item of list) {
      for (const grant of item.grants ?? []) if (grant.dangerous) out.add(grant.name);
      walk(item.children ?? []);
    }
  };
  walk(items);
  return out;
}

/** Every page and group name, for role editors and server-side validation of menu_ids. */
export function menuPermissionNames(items: readonly MenuItem[] = SETTINGS_MENU): string[] {
  return items.flatMap((item) => [
    ...(item.name ? [item.name] : []),
    ...menuPermissionNames(item.children ?? []),
  ]);
}

/** The actions a page declares (none for a group or an unknown name). */
export function pageActions(
  name: string,
  items: readonly MenuItem[] = SETTINGS_MENU,
): readonly PermissionAction[] {
  const flat = (list: readonly MenuItem[]): MenuItem[] =>
    list.flatMap((item) => [item, ...flat(item.children ?? [])]);
  return flat(items).find((item) => item.name === name)?.actions ?? [];
}

/** Every name a role may hold: groups, pages, and `<page>.<action>` for the actions each page declares. */
export function grantablePermissionNames(items: readonly MenuItem[] = SETTINGS_MENU): Set<string> {
  const names = new Set(menuPermissionNames(items));
  const walk = (list: readonly MenuItem[]) => {
    for (const item of list) {
      if (item.name) for (const action of item.actions ?? []) names.add(`${item.name}.${action}`);
      for (const grant of item.grants ?? []) names.add(grant.name);
      walk(item.children ?? []);
    }
  };
  walk(items);
  return names;
}

/** A resource page's default order within its group (`menu.order`). */
export const DEFAULT_MENU_ORDER = 100;

/** The menu group of a permission name: everything before its last dot (`content.articles` -> `content`). */
export function menuGroupOf(permission: string): string | null {
  const dot = permission.lastIndexOf('.');
  return dot > 0 ? permission.slice(0, dot) : null;
}

/** Locale key of a group's title: `app.menu.<last segment>` (`content` -> `app.menu.content`). */
export function menuGroupTitle(group: string): string {
  return `app.menu.${group.slice(group.lastIndexOf('.') + 1)}`;
}

/**
 * What `settingsMenu` reads of a resource (resources/define.ts `Resource` fits it): schemas/ sits below
 * resources/ (eslint.config.js), so the menu is typed by this shape, not by the engine's declaration type.
 */
export interface MenuResource {
  name: string;
  permission: string;
  options: {
    menu?: { icon?: string; order?: number } | false;
    /** The routes it has (resources/define.ts RESOURCE_OPERATIONS); all of them when absent. */
    operations?: readonly string[];
    /** Its row actions by key (resources/define.ts `actions`): each is a grant `<permission>.<key>`. */
    actions?: Readonly<Record<string, unknown>>;
  };
}

/** The page a resource adds: its permission, plural label, path, icon and the actions its operations need. */
export function resourceMenuItem(resource: MenuResource): MenuItem {
  const place = resource.options.menu;
  const operations = resource.options.operations;
  return {
    name: resource.permission,
    title: `resources.${resource.name}.name_other`,
    icon: (place && place.icon) || 'Folder',
    path: `/settings/${resource.name}`,
    actions: PERMISSION_ACTIONS.filter((action) => !operations || operations.includes(action)),
    ...(resource.options.actions && Object.keys(resource.options.actions).length
      ? {
          grants: Object.keys(resource.options.actions).map((key) => ({
            name: `${resource.permission}.${key}`,
            title: `resources.${resource.name}.actions.${key}`,
          })),
        }
      : {}),
    ...(place === false ? { hidden: true } : {}),
  };
}

/**
 * What `settingsMenu` reads of a custom page (resources/define-page.ts `PageDeclaration` fits it): a
 * hand-written screen a module declares, with its own permission name and no actions.
 */
export interface MenuPage {
  name: string;
  permission: string;
  /** Below /settings/ (`gadget-report` -> `/settings/gadget-report`). */
  path: string;
  /** Locale key of its title. */
  title: string;
  menu?: { icon?: string; order?: number };
}

/** The menu entry of a custom page: its permission, title, path and icon, no actions. */
export function pageMenuItem(page: MenuPage): MenuItem {
  return {
    name: page.permission,
    title: page.title,
    icon: page.menu?.icon || 'Article',
    path: `/settings/${page.path}`,
    actions: [],
  };
}

const merged = new WeakMap<readonly MenuResource[], MenuItem[]>();
const mergedWithPages = new WeakMap<readonly MenuResource[], WeakMap<readonly MenuPage[], MenuItem[]>>();

/**
 * The whole settings menu: the built-in tree plus one page per resource whose permission it does not already
 * name (resources/define.ts `menu`). A page joins the group its permission's prefix names: a built-in group
 * (`system.users.x` -> User), or a new group titled `app.menu.<group>`, created after the built-in ones; pages
 * follow a group's built-in pages by `menu.order`, then name. The role editor, the menu, `GET v1/system/menus`
 * and the server's role validation all read this, so a new resource's names are grantable with no edit here.
 *
 * @example
 * settingsMenu(resources); // [...SETTINGS_MENU, { name: 'test', title: 'app.menu.test', children: [gadgets...] }]
 */
export function settingsMenu(
  resources: readonly MenuResource[],
  base: readonly MenuItem[] = SETTINGS_MENU,
  /** Custom pages the modules declare (resources/define-page.ts): placed by the same rule as resources. */
  customPages: readonly MenuPage[] = [],
): MenuItem[] {
  const cache = customPages.length ? mergedWithPages.get(resources)?.get(customPages) : merged.get(resources);
  const hit = base === SETTINGS_MENU ? cache : undefined;
  if (hit) return hit;
  const known = new Set(menuPermissionNames(base));
  const pages = [
    ...resources
      .filter((r) => !known.has(r.permission))
      .map((r) => ({ permission: r.permission, name: r.name, order: orderOf(r), item: resourceMenuItem(r) })),
    ...customPages
      .filter((p) => !known.has(p.permission))
      .map((p) => ({
        permission: p.permission,
        name: p.name,
        order: p.menu?.order ?? DEFAULT_MENU_ORDER,
        item: pageMenuItem(p),
      })),
  ].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const out: MenuItem[] = base.map((item) => ({
    ...item,
    ...(item.children ? { children: [...item.children] } : {}),
  }));
  for (const { permission, item } of pages) {
    const group = menuGroupOf(permission);
    if (group === null) {
      out.push(item);
      continue;
    }
    let parent = out.find((g) => g.name === group);
    if (!parent) {
      parent = { name: group, title: menuGroupTitle(group), icon: 'Folder', children: [] };
      out.push(parent);
    }
    parent.children = [...(parent.children ?? []), item];
  }
  // A new group whose every page is hidden stays out of the menu (its name is still grantable).
  for (const group of out.slice(base.length))
    if (group.children?.length && group.children.every((c) => c.hidden)) group.hidden = true;
  if (base === SETTINGS_MENU && customPages.length) {
    const byPages = mergedWithPages.get(resources) ?? new WeakMap<readonly MenuPage[], MenuItem[]>();
    byPages.set(customPages, out);
    mergedWithPages.set(resources, byPages);
  } else if (base === SETTINGS_MENU) merged.set(resources, out);
  return out;
}

function orderOf(resource: MenuResource): number {
  const place = resource.options.menu;
  return place ? (place.order ?? DEFAULT_MENU_ORDER) : DEFAULT_MENU_ORDER;
}

/** The menu as shown: hidden entries (`menu: false`) removed, recursively. */
export function visibleMenu(items: readonly MenuItem[]): MenuItem[] {
  return items
    .filter((item) => !item.hidden)
    .map((item) => (item.children ? { ...item, children: visibleMenu(item.children) } : item));
}
