import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import type { ResourceHooks } from '../../engine/hooks.ts';

/**
 * Department rules: the superior exists (or is the root "0"); a department never moves under itself or
 * one of its own sub-departments (422); one with sub-departments or staff cannot be deleted (409).
 */
export const departmentHooks: ResourceHooks = {
  async beforeWrite({ action, tx, id, data }) {
    if (action === 'delete') {
      const { rows } = await tx.query<{ children: boolean; staff: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM departments WHERE parent_id = $1) AS children,
                EXISTS (SELECT 1 FROM staff WHERE department_id = $1) AS staff`,
        [id],
      );
      if (rows[0]?.children) throw new AppError(409, 'settings.people.errors.department_has_children');
      if (rows[0]?.staff) throw new AppError(409, 'settings.people.errors.department_has_staff');
      return;
    }
    if (!('parent_id' in data) || data.parent_id === '0') return;
    const parent = String(data.parent_id);
    const { rows } = await tx.query('SELECT 1 FROM departments WHERE id = $1', [parent]);
    if (!rows.length) throw invalidParent('settings.people.errors.parent_missing');
    if (id !== null && (await ancestorsOf(tx, parent)).includes(id))
      throw invalidParent('settings.people.errors.department_cycle');
  },
};

/** The department itself and every superior up to the root. */
async function ancestorsOf(db: Queryable, departmentId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE up(id, parent_id) AS (
       SELECT id, parent_id FROM departments WHERE id = $1
       UNION SELECT d.id, d.parent_id FROM departments d JOIN up ON d.id = up.parent_id)
     SELECT id FROM up`,
    [departmentId],
  );
  return rows.map((r) => String(r.id));
}

function invalidParent(key: string): AppError {
  return AppError.validation({ parent_id: [key] });
}
