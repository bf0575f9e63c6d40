import * as z from 'zod';
import { defineResource, dictionary, field, reference, references } from '../../../resources/define.ts';

/** A small client-side resource with one field of each kind, for the engine's own tests. */
export const contacts = defineResource({
  name: 'contacts',
  endpoint: 'v1/test/contacts',
  permission: 'test.contacts',
  recordRepresentation: 'name',
  schema: z.object({
    name: field(z.string().trim().min(1).max(50), { search: 'like', sort: true, list: true }),
    email: field(z.email({ message: 'validation.email' }), {
      search: '=',
      list: true,
      mask: 'email',
      unique: true,
    }),
    phone: field(z.string().optional(), { list: true, mask: 'phone' }),
    age: field(z.number().int().min(0).optional(), { search: ['>=', '<='], sort: true }),
    gender: field(z.enum(['male', 'female', 'unknown']).default('unknown'), { search: '=', list: true }),
    state: field(z.boolean().default(true), { search: '=', list: true }),
    birthday: field(z.iso.date().optional(), {}),
    homepage: field(z.url().optional(), {}),
    department_id: reference('departments', { search: '=' }),
    role_ids: references('roles'),
    // `.optional()` after `dictionary()`: the engine still finds the metadata on the inner schema.
    category: dictionary('contact_category', { search: '=' }).optional(),
    password: field(z.string().min(8).optional(), { writeOnly: true }),
    note: field(z.string().max(500).optional(), { input: 'textarea' }),
    code: field(z.string().optional(), { readOnly: true }),
    // A 0/1 flag (like staff.is_admin): a switch, not a number input.
    is_vip: field(z.int().min(0).max(1).default(0), {}),
  }),
});
