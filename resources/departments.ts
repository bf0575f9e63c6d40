import * as z from 'zod';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineResource, field } from './define.ts';

/** A department id, or "0" for the root (the column is a plain bigint, not a foreign key). */
const parentId = z
  .union([z.string().regex(/^\d{1,19}$/), z.int().nonnegative()])
  .transform(String)
  .default('0');

/**
 * Departments (`v1/user/departments`): a tree by `parent_id` ("0" = root). The tree call, cycle and
 * delete rules live in server/modules/people (hooks); the screen is a tree page (src/pages/people).
 */
export const departments = defineResource({
  name: 'departments',
  endpoint: 'v1/user/departments',
  permission: PERMISSION.usersDepartments,
  schema: z.object({
    name: field(z.string().trim().min(1).max(100), { search: 'like', sort: true, list: true }),
    parent_id: field(parentId, { search: ['=', 'in'], sort: true, list: true }),
    sort: field(z.int().min(0).max(1_000_000).default(0), { sort: true, list: true }),
    state: field(z.boolean().default(true), { search: '=', sort: true, list: true }),
  }),
  recordRepresentation: 'name',
  defaultSort: { field: 'sort', order: 'asc' },
  // A department is in a data scope by its own id (a `department_and_below` role sees its subtree).
  scope: { department: 'id' },
});
