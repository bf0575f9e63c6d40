import { lazy } from 'react';
import type { ComponentType } from 'react';
import type { Resource } from '../../resources/define.ts';
import type { ResourceDescriptor } from '../engine/descriptor.ts';
import type { ResourceViews } from '../engine/views.ts';

/**
 * A hand-written screen downloaded on its first visit (the settings layout shows a loading state meanwhile),
 * so opening the admin at one list does not download every other screen.
 */
function lazyView<M, P extends { resource: Resource | ResourceDescriptor }>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
) {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

/**
 * The one place to override a generated screen without forking the engine. Keyed by resource name; the
 * admin app hands it to the engine (engineRoutes -> EngineResource), the engine never imports it.
 *
 * @example
 * // src/admin/overrides.ts
 * const StaffEdit = lazyView(() => import('../pages/people/StaffEdit.tsx'), (m) => m.StaffEdit);
 * export const overrides: Record<string, ResourceViews> = { staff: { edit: StaffEdit, show: false } };
 */
export const overrides: Record<string, ResourceViews> = {
  departments: {
    list: lazyView(
      () => import('../pages/people/DepartmentTreePage.tsx'),
      (m) => m.DepartmentTreePage,
    ),
    create: false,
    edit: false,
    show: false,
  },
  roles: {
    create: lazyView(
      () => import('../pages/people/RoleCreate.tsx'),
      (m) => m.RoleCreate,
    ),
    edit: lazyView(
      () => import('../pages/people/RoleEdit.tsx'),
      (m) => m.RoleEdit,
    ),
  },
  staff: {
    list: lazyView(
      () => import('../pages/people/StaffList.tsx'),
      (m) => m.StaffList,
    ),
    create: lazyView(
      () => import('../pages/people/StaffCreate.tsx'),
      (m) => m.StaffCreate,
    ),
    edit: lazyView(
      () => import('../pages/people/StaffEdit.tsx'),
      (m) => m.StaffEdit,
    ),
  },
  dictionaries: {
    create: lazyView(
      () => import('../pages/settings/dictionaries/DictionaryCreate.tsx'),
      (m) => m.DictionaryCreate,
    ),
    edit: lazyView(
      () => import('../pages/settings/dictionaries/DictionaryEdit.tsx'),
      (m) => m.DictionaryEdit,
    ),
    show: false,
  },
  assets: {
    list: lazyView(
      () => import('../pages/settings/files/FilesPage.tsx'),
      (m) => m.FilesPage,
    ),
    create: false,
    edit: false,
    show: false,
  },
  activities: {
    list: lazyView(
      () => import('../pages/settings/activities/ActivityLogPage.tsx'),
      (m) => m.ActivityLogPage,
    ),
    create: false,
    edit: false,
    show: false,
  },
};
