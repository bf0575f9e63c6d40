import { AppError } from '../../core/errors.ts';
import { departments } from '../../../resources/departments.ts';
import { staff } from '../../../resources/staff.ts';
import type { ResourceHooks } from '../../engine/hooks.ts';
import { asSystem } from '../../engine/system-access.ts';
import { heldError } from '../../engine/write/trash-writes.ts';

/**
 * Department rules: the superior exists (or is the root "0"); a department never moves under itself or
 * one of its own sub-departments (422); one with sub-departments or staff cannot be deleted (409, `errors.holders` = how many).
 */
export const departmentHooks: ResourceHooks = {
  async beforeWrite({ action, tx, id, data }) {
    const system = asSystem(tx);
    if (action === 'delete') {
      // Live holders only (system reads leave the trash out): a trashed sub-department or staff member holds
      // nothing, and a purge of it is refused by its foreign key instead.
      const holders =
        (await system.count(departments, { parent_id: id })) +
        (await system.count(staff, { department_id: id }));
      if (holders > 0) throw heldError(holders, '', 'settings.people.errors.department_held');
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
