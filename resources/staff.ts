import * as z from 'zod';
import { email, phone } from '../schemas/common.ts';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineResource, field, reference, references } from './define.ts';

export const GENDERS = ['male', 'female', 'unknown'] as const;

/**
 * Staff (`v1/user/staff`): the people who may use the back office. `user_id` is set when the invitee joins
 * (`POST v1/user/join`); until then the record is "unregistered". The server adds `registered` and, right
 * after a create or a re-issue, `invitation_url` (only the token's hash is stored, so it is shown once).
 * Who may set what (is_admin, roles, own record) is enforced in server/modules/people.
 */
export const staff = defineResource({
  name: 'staff',
  endpoint: 'v1/user/staff',
  permission: PERMISSION.usersStaff,
  schema: z.object({
    name: field(z.string().trim().min(1).max(60), { search: 'like', sort: true, list: true }),
    gender: field(z.enum(GENDERS).default('unknown'), { search: '=', list: true, filter: false }),
    phone: field(phone.nullable().optional(), { search: 'like', list: true, mask: 'phone', input: 'phone' }),
    email: field(email.nullable().optional(), {
      search: 'like',
      list: true,
      mask: 'email',
      input: 'email',
      filter: false,
    }),
    department_id: reference('departments', {
      search: ['=', 'in'],
      list: true,
      sortBy: ['name'],
      searchBy: ['name'],
    }),
    role_ids: references('roles', { search: ['=', 'in'], list: true }),
    state: field(z.boolean().default(true), { search: '=', sort: true, list: true }),
    is_supervisor: field(z.boolean().default(false), { search: '=', list: false, filter: false }),
    is_admin: field(z.int().min(0).max(1).default(0), { search: '=', list: false, filter: false }),
    user_id: reference('users', { readOnly: true, search: '=', list: false, filter: false }),
  }),
  recordRepresentation: 'name',
  // Scoped by department_id (the default); a `self` role also sees the caller's own staff record.
  scope: { self: 'user_id' },
});
