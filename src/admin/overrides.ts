import type { ComponentType } from 'react';
import type { ScreenBundle } from '../../locales/languages.ts';
import type { Resource } from '../../resources/define.ts';
import type { ResourceDescriptor } from '../engine/data/descriptor.ts';
import type { ResourceViews } from '../engine/views.ts';
import { lazyScreen } from './lazyScreen.ts';

/**
 * A hand-written screen downloaded on its first visit with the message bundles it shows (the settings
 * layout shows a loading state meanwhile), so opening the admin at one list does not download every other
 * screen or its texts.
 */
function lazyView<M, P extends { resource: Resource | ResourceDescriptor }>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  messages: readonly ScreenBundle[] = [],
) {
  return lazyScreen(load, pick, messages);
}

/** The people and settings screens' own texts (locales/<lang>/settings.json). */
const SETTINGS: readonly ScreenBundle[] = ['settings'];

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
      SETTINGS,
    ),
    create: false,
    edit: false,
    show: false,
  },
  roles: {
    create: lazyView(
      () => import('../pages/people/RoleCreate.tsx'),
      (m) => m.RoleCreate,
      SETTINGS,
    ),
    edit: lazyView(
      () => import('../pages/people/RoleEdit.tsx'),
      (m) => m.RoleEdit,
      SETTINGS,
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
      SETTINGS,
    ),
    edit: lazyView(
      () => import('../pages/people/StaffEdit.tsx'),
      (m) => m.StaffEdit,
      SETTINGS,
    ),
  },
  dictionaries: {
    create: lazyView(
      () => import('../pages/settings/dictionaries/DictionaryCreate.tsx'),
      (m) => m.DictionaryCreate,
      SETTINGS,
    ),
    edit: lazyView(
      () => import('../pages/settings/dictionaries/DictionaryEdit.tsx'),
      (m) => m.DictionaryEdit,
      SETTINGS,
    ),
    show: false,
  },
  assets: {
    list: lazyView(
      () => import('../pages/settings/files/FilesPage.tsx'),
      (m) => m.FilesPage,
      SETTINGS,
    ),
    create: false,
    edit: false,
    show: false,
  },
  activities: {
    list: lazyView(
      () => import('../pages/settings/activities/ActivityLogPage.tsx'),
      (m) => m.ActivityLogPage,
      SETTINGS,
    ),
    create: false,
    edit: false,
    show: false,
  },
};
