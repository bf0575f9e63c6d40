import * as z from 'zod';
import { wireId } from './wire.ts';

/**
 * A department in `GET v1/user/department/tree` (server/modules/people/tree.ts builds it; the departments
 * page and the department pickers read it). `value` repeats the id for tree-select widgets; `children`
 * are nodes of the same shape, siblings by sort then id.
 */
export const departmentNodeSchema = z.object({
  id: wireId,
  parent_id: z.string(),
  title: z.string(),
  value: z.string(),
  sort: z.number().int(),
  state: z.boolean(),
  version: z.number().int().optional().describe('the version an edit sends back (PATCH `version`)'),
  // The JSON Schema stays flat (a recursive one would need a named component); the type below recurses.
  children: z.array(z.looseObject({}).describe('Department nodes, the same shape')),
});
export type DepartmentNode = Omit<z.infer<typeof departmentNodeSchema>, 'children'> & {
  children: DepartmentNode[];
};
