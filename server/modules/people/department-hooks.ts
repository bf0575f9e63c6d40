import { AppError } from '../../core/errors.ts';
import { departments } from '../../../resources/departments.ts';
import { staff } from '../../../resources/staff.ts';
import type { ResourceHooks } from '../../engine/hooks.ts';
import { asSystem } from '../../engine/system-access.ts';

/**
 * Department rules: the superior exists (or is the root "0"); a department never moves under itself or
 * one of its own sub-departments (422); one with sub-departments or staff cannot be deleted (409).
 */
export const departmentHooks: ResourceHooks = {
  async beforeWrite({ action, tx, id, data }) {
    const system = asSystem(tx);
    if (action === 'delete') {
      if (await system.exists(departments, { parent_id: id }))
        throw new AppError(409, 'settings.people.errors.department_has_children');
      if (await system.exists(staff, { department_id: id }))
        throw new AppError(409, 'settings.people.errors.department_has_staff');
      return;
    }
    if (!('parent_id' in data) || data.parent_id === '0') return;
    const parent = String(data.parent_id);
    if (!(await system.exists(departments, { id: parent })))
      throw invalidParent('settings.people.errors.parent_missing');
    // The new superior, and every superior of it up to the root, must not be the department itself.
    if (id !== null && (await system.treeIds(departments, { ids: [parent], direction: 'up' })).includes(id))
      throw invalidParent('settings.people.errors.department_cycle');
  },
};

function invalidParent(key: string): AppError {
  return AppError.validation({ parent_id: [key] });
}
