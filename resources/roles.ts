import * as z from 'zod';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineResource, field, references } from './define.ts';

/** A role's grants: permission names (pages, groups and `<page>.<action>`), per the API contract. */
export const rolePermissions = z.object({
  menu_ids: z.array(z.string().trim().min(1).max(100)).max(500).default([]),
});

/** Which rows a role's members see of the resources it grants (server/engine/scope.ts). */
export const DATA_SCOPES = ['all', 'department_and_below', 'department', 'self', 'custom'] as const;

/**
 * A role's field access: `"<resource>.<field>"` -> `hidden` (absent from every answer) or `read` (shown, not
 * written). A field not named is writable as the resource allows. The server refuses keys naming no
 * registered resource's field, `id`, and a resource's required fields without a default
 * (server/modules/people, server/engine/field-access.ts).
 */
export const roleFieldAccess = z.record(z.string().trim().min(3).max(200), z.enum(['hidden', 'read']));

/**
 * Roles (`v1/user/roles`). Members hold the union of their enabled roles' `menu_ids`. The server refuses
 * unknown names and names the editor does not hold (server/modules/people).
 */
export const roles = defineResource({
  name: 'roles',
  endpoint: 'v1/user/roles',
  permission: PERMISSION.usersRoles,
  schema: z.object({
    name: field(z.string().trim().min(1).max(60), { search: 'like', sort: true, list: true, unique: true }),
    intro: field(z.string().trim().max(500).default(''), { input: 'textarea', list: true }),
    permissions: field(rolePermissions.default({ menu_ids: [] }), { list: false }),
    field_access: field(roleFieldAccess.default({}), { list: false }),
    sort: field(z.int().min(0).max(1_000_000).default(0), { sort: true, list: true }),
    state: field(z.boolean().default(true), { search: '=', sort: true, list: true }),
    data_scope: field(z.enum(DATA_SCOPES).default('all'), { search: '=', list: false }),
    /** The departments a `custom` data scope names (each exactly, not its subtree). */
    data_scope_department_ids: references('departments', { list: false }),
  }),
  scope: false,
  recordRepresentation: 'name',
  defaultSort: { field: 'sort', order: 'asc' },
});
