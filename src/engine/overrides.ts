import type { ComponentType } from 'react';
import type { Resource } from '../../resources/define.ts';
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

/** A screen of a resource; it receives the resource so it can reuse engine parts (renderField, ResourceForm...). */
export type ResourceView = ComponentType<{ resource: Resource }>;

/**
 * Hand-written screens that replace generated ones, per resource and per view; `false` removes a view (no
 * show page, say). Everything not listed here stays generated.
 */
export interface ResourceViews {
  list?: ResourceView | false;
  create?: ResourceView | false;
  edit?: ResourceView | false;
  show?: ResourceView | false;
}

/**
 * The one place to override a generated screen without forking the engine. Keyed by resource name.
 *
 * @example
 * // src/engine/overrides.ts
 * import { StaffEdit } from '../pages/settings/staff/StaffEdit.tsx';
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
