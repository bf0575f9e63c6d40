import * as z from 'zod';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineResource, field, reference } from './define.ts';

/**
 * The activity log (`GET v1/user/logs`, page `/settings/activities`): one row per audited write, in the
 * table the foundation migration created. Read-only: the engine mounts no routes for it (`operations: []`);
 * the activities module serves the list with the engine's query language and embeds the operator.
 */
export const activities = defineResource({
  name: 'activities',
  table: 'activity_logs',
  // The log is what undo and history read; entries leave it only by their retention.
  softDelete: false,
  endpoint: 'v1/user/logs',
  permission: PERMISSION.usersActivities,
  schema: z.object({
    operator_id: reference('users', { search: ['=', 'in'], list: true }),
    action: field(z.string().max(100), { search: ['=', 'like', 'in'], sort: true, list: true }),
    subject_type: field(z.string().max(100).nullable(), { search: ['=', 'in'], sort: true, list: true }),
    subject_id: field(z.string().max(40).nullable(), { search: ['=', 'in'], list: true }),
    changes: field(z.record(z.string(), z.unknown()).nullable(), { list: true }),
    ip: field(z.string().max(64).nullable(), { search: ['=', 'like'], list: true }),
    user_agent: field(z.string().max(1000).nullable(), {}),
    created_at: field(z.iso.datetime(), {
      readOnly: true,
      sort: true,
      list: true,
      search: ['between', '>=', '<='],
    }),
  }),
  timestamps: false,
  defaultSort: { field: 'created_at', order: 'desc' },
  operations: [],
  // The activity log module lists it itself; records whose history it shows are scoped on their own paths.
  scope: false,
});

/**
 * Fields of audited events that are no field of their subject yet name records (the first administrator's
 * `staff_id`, the roles an OpenID sign-up granted): the log names them like reference fields, through the
 * resource they point at, instead of showing an id. `changes` key -> resource name.
 */
export const ACTIVITY_REFERENCES: Readonly<Record<string, string>> = {
  staff_id: 'staff',
  role_ids: 'roles',
};
