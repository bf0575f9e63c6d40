import { isSoftDelete, type Resource } from '../../resources/define.ts';
import type { Queryable } from '../db/index.ts';
import { ident } from './schema/fields.ts';

/**
 * The ids of a tree resource's records from `ids` down to every descendant, or up to every ancestor, the
 * given ones included (one recursive query). Used by the system seam (`asSystem(db).treeIds`) and by the
 * data scopes (scope.ts: a `department_and_below` role's departments).
 */
export async function treeIds(
  db: Queryable,
  resource: Resource,
  {
    ids,
    direction,
    parentColumn = 'parent_id',
  }: { ids: readonly string[]; direction: 'down' | 'up'; parentColumn?: string },
): Promise<string[]> {
  if (ids.length === 0) return [];
  const table = ident(resource.table);
  const parent = ident(parentColumn);
  // Down: live children only (see hooks.ts subtreeFilter), so the partial (parent, id) index serves the step.
  const live = direction === 'down' && isSoftDelete(resource) ? ' AND t."deleted_at" IS NULL' : '';
  const step = direction === 'down' ? `t.${parent} = tree.id${live}` : `t.id = tree.parent`;
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE tree(id, parent) AS (
       SELECT id, ${parent} FROM ${table} WHERE id = ANY($1::bigint[])
       UNION SELECT t.id, t.${parent} FROM ${table} t JOIN tree ON ${step})
     SELECT id::text AS id FROM tree`,
    [ids],
  );
  return rows.map((r) => r.id);
}
