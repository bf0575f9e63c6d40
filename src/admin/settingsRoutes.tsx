import type { ReactNode } from 'react';
import { PERMISSION } from '../../schemas/permissions.ts';
import { PlaceholderPage } from '../pages/settings/PlaceholderPage.tsx';
import { engineRoutes } from '../engine/engineRoutes.tsx';
import { registeredDescriptors as resources } from '../engine/data/registry.ts';
import { lazyScreen } from './lazyScreen.ts';
import { overrides } from './overrides.ts';
import { registeredPages } from '../engine/data/pages.ts';
import { pageScreens } from './pageScreens.ts';

// The system pages load on first visit, with their messages (SettingsLayout shows a loading state meanwhile).
const FilesPage = lazyScreen(
  () => import('../pages/settings/files/FilesPage.tsx'),
  (m) => m.FilesPage,
  ['settings'],
);
const LogsPage = lazyScreen(
  () => import('../pages/system/logs/LogsPage.tsx'),
  (m) => m.LogsPage,
  ['system'],
);
const ModulesPage = lazyScreen(
  () => import('../pages/system/modules/ModulesPage.tsx'),
  (m) => m.ModulesPage,
  ['system'],
);
const MonitorPage = lazyScreen(
  () => import('../pages/system/monitor/MonitorPage.tsx'),
  (m) => m.MonitorPage,
  ['system'],
);
const JobsPage = lazyScreen(
  () => import('../pages/system/jobs/JobsPage.tsx'),
  (m) => m.JobsPage,
  ['system'],
);
const TasksPage = lazyScreen(
  () => import('../pages/system/tasks/TasksPage.tsx'),
  (m) => m.TasksPage,
  ['system'],
);

/**
 * One page of the settings area, at `/settings/<path>`, shown only with `permission` (otherwise the
 * "No Permission" state). This array is the extension point for the resource screens: replace an element
 * with the generated list/create/edit screen of a resource (wrapped in react-admin's
 * ResourceContextProvider), or append entries built from the resources registry.
 */
export interface SettingsRoute {
  path: string;
  element: ReactNode;
  permission?: string;
}

/** The collections of spec 2 that have list, create and `{id}` edit pages. */
const COLLECTIONS = [
  { path: 'dictionaries', permission: PERMISSION.settingsDictionaries, title: 'app.menu.dictionaries' },
  { path: 'staff', permission: PERMISSION.usersStaff, title: 'app.menu.staff' },
  { path: 'roles', permission: PERMISSION.usersRoles, title: 'app.menu.roles' },
] as const;

/** The single pages of spec 2. */
const PAGES = [
  { path: 'resources', permission: PERMISSION.settingsResources, title: 'app.menu.resources' },
  { path: 'departments', permission: PERMISSION.usersDepartments, title: 'app.menu.departments' },
  { path: 'activities', permission: PERMISSION.usersActivities, title: 'app.menu.activities' },
  { path: 'logs', permission: PERMISSION.systemLogs, title: 'app.menu.logs' },
] as const;

/** Hand-written pages that replace a placeholder (the `assets` resource's page lives at /settings/resources). */
const PAGE_ELEMENTS: Partial<Record<string, ReactNode>> = {
  resources: <FilesPage />,
  logs: <LogsPage />,
};

// Resources of the registry get generated screens (src/engine); their placeholders give way.
const generated = engineRoutes(resources, overrides);
const isGenerated = (path: string) => generated.some((route) => route.name === path);

export const settingsRoutes: SettingsRoute[] = [
  ...generated,
  ...COLLECTIONS.filter(({ path }) => !isGenerated(path)).flatMap(({ path, permission, title }) => [
    { path, permission, element: <PlaceholderPage titleKey={title} /> },
    { path: `${path}/create`, permission, element: <PlaceholderPage titleKey={title} detail="create" /> },
    { path: `${path}/:id`, permission, element: <PlaceholderPage titleKey={title} /> },
  ]),
  ...PAGES.filter(({ path }) => !isGenerated(path)).map(({ path, permission, title }) => ({
    path,
    permission,
    element: PAGE_ELEMENTS[path] ?? <PlaceholderPage titleKey={title} />,
  })),
  { path: 'monitor', permission: PERMISSION.systemMonitor, element: <MonitorPage /> },
  { path: 'modules', permission: PERMISSION.settingsModules, element: <ModulesPage /> },
  { path: 'tasks', permission: PERMISSION.systemTasks, element: <TasksPage /> },
  { path: 'jobs', permission: PERMISSION.systemJobs, element: <JobsPage /> },
  // The modules' custom pages (resources/pages.ts), each behind its own permission.
  ...registeredPages.map((page) => {
    const Screen = pageScreens[page.name];
    return {
      path: page.path,
      permission: page.permission,
      element: Screen ? <Screen /> : <PlaceholderPage titleKey={page.title} />,
    };
  }),
];
