import * as z from 'zod';
import { defineResource, field } from '../../../resources/define.ts';

export const departments = defineResource({
  name: 'departments',
  endpoint: 'v1/test/departments',
  permission: 'test.departments',
  recordRepresentation: 'name',
  schema: z.object({ name: field(z.string().min(1), { search: 'like', list: true }) }),
});

export const roles = defineResource({
  name: 'roles',
  endpoint: 'v1/test/roles',
  permission: 'test.roles',
  recordRepresentation: 'name',
  schema: z.object({ name: field(z.string().min(1), { search: 'like', list: true }) }),
});
