import { ActivityLogPage } from '../pages/settings/activities/ActivityLogPage.tsx';
import { DictionaryCreate } from '../pages/settings/dictionaries/DictionaryCreate.tsx';
import { DictionaryEdit } from '../pages/settings/dictionaries/DictionaryEdit.tsx';
import { FilesPage } from '../pages/settings/files/FilesPage.tsx';
import { DepartmentTreePage } from '../pages/people/DepartmentTreePage.tsx';
import { RoleCreate } from '../pages/people/RoleCreate.tsx';
import { RoleEdit } from '../pages/people/RoleEdit.tsx';
import { StaffCreate } from '../pages/people/StaffCreate.tsx';
import { StaffEdit } from '../pages/people/StaffEdit.tsx';
import { StaffList } from '../pages/people/StaffList.tsx';
import type { ResourceViews } from '../engine/views.ts';

/**
 * The one place to override a generated screen without forking the engine. Keyed by resource name; the
 * admin app hands it to the engine (engineRoutes -> EngineResource), the engine never imports it.
 *
 * @example
 * // src/admin/overrides.ts
 * import { StaffEdit } from '../pages/people/StaffEdit.tsx';
 * export const overrides: Record<string, ResourceViews> = { staff: { edit: StaffEdit, show: false } };
 */
export const overrides: Record<string, ResourceViews> = {
  departments: { list: DepartmentTreePage, create: false, edit: false, show: false },
  roles: { create: RoleCreate, edit: RoleEdit },
  staff: { list: StaffList, create: StaffCreate, edit: StaffEdit },
  dictionaries: { create: DictionaryCreate, edit: DictionaryEdit, show: false },
  assets: { list: FilesPage, create: false, edit: false, show: false },
  activities: { list: ActivityLogPage, create: false, edit: false, show: false },
};
