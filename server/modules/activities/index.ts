import * as z from 'zod';
import { activities } from '../../../resources/activities.ts';
import { isIdString } from '../../../resources/define.ts';
import { wireId, wireTime } from '../../../schemas/wire.ts';
import { ok } from '../../core/envelope.ts';
import { pagedOf, permission, route, unchecked } from '../../core/route.ts';
import type { RawQuery } from '../../engine/list/query.ts';
import { listQueryDoc } from '../../engine/openapi.ts';
import type { AppModule } from '../../core/app-module.ts';
import { findOperators, listActivities, readActivity } from './operations.ts';

export { trimActivityLog } from './trim.ts';
export { withNames } from './names.ts';

const BASE = `/api/${activities.endpoint}`;
const operatorQuery = z.object({
  q: z.string().max(100, { message: 'validation.too_long' }).optional(),
  id: z
    .string()
    .regex(/^\d{1,19}$/, { message: 'validation.invalid' })
    .refine(isIdString, { message: 'validation.invalid' })
    .optional(),
});

/** A user as the log names it (an operator). */
const operatorSchema = z.object({ id: wireId, username: z.string(), name: z.string().nullable() });
/** A row of the log as the routes answer it (`subject` and `names`: see ./names.ts). */
const activitySchema = z.object({
  id: wireId,
  operator_id: z.string().nullable().optional(),
  operator: operatorSchema.partial({ username: true, name: true }).nullable().optional(),
  action: z.string(),
  subject_type: z.string().nullable().optional(),
  subject_id: z.string().nullable().optional(),
  /** Only the values the reader may see (./access.ts); the other changed fields are named in `changes_withheld`. */
  changes: z.unknown().optional(),
  changes_withheld: z.array(z.string()).optional(),
  ip: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
  created_at: wireTime,
  created_by: z.string().nullable().optional(),
  updated_by: z.string().nullable().optional(),
  /** The row's version (every engine table has one; a log row is written once, so it stays 1). */
  version: z.int().optional(),
  subject: z
    .object({
      label: z.string().nullable().describe("the record's representation today; null once deleted"),
      deleted: z.boolean(),
    })
    .nullable()
    .optional()
    .describe('the subject record, when the reader may read it'),
  names: z
    .record(z.string(), z.record(z.string(), z.string()))
    .optional()
    .describe('representations of the records the changes refer to: { roles: { "1": "Admin" } }'),
  operation_id: z
    .string()
    .nullable()
    .optional()
    .describe('the bulk call or import that wrote the row (`POST v1/operations/<id>/undo`), else null'),
  undoable: z
    .boolean()
    .optional()
    .describe(
      'whether the caller may undo that operation now (its own or an administrator, the permission it ' +
        'needed, within 7 days, not undone yet); the undo decides again',
    ),
});

/**
 * The activity log (`GET v1/user/logs`, `GET v1/user/logs/<id>`, `GET v1/user/logs/operators?q=&id=`): the engine's list query language on the
 * `activities` resource (paging; filters by operator_id, action, subject_type, created_at between ...), each
 * row with its operator embedded as `{ id, username, name }`, its subject's representation (`subject`) and the
 * names of the records its changes refer to (`names`, see ./names.ts). The values of `changes` are there only
 * for a reader who may read the row's subject (./access.ts); otherwise `changes` is `{}` and
 * `changes_withheld` lists the changed fields. Read-only: there is no write route at all,
 * rows are written by the audit of every operation and removed only by `trimActivityLog`.
 */
export const activitiesModule: AppModule = {
  name: 'activities',
  register(app, { db }) {
    route(app, {
      method: 'GET',
      url: BASE,
      tags: ['activities'],
      summary: 'Activity log (list query of the contract)',
      description:
        'The list query of the contract (search, searchFields, orderBy ...) over the activity log.',
      access: permission(activities.permission),
      // The engine's list query language, read (and refused field by field) by listActivities.
      query: unchecked<RawQuery | undefined>(listQueryDoc(activities)),
      responses: { 200: pagedOf(activitySchema) },
      handler: async ({ principal, query }) =>
        ok(await listActivities(db, { principal, query: query ?? {} })),
    });
    route(app, {
      method: 'GET',
      url: `${BASE}/operators`,
      tags: ['activities'],
      summary: 'Operators that appear in the log (for the operator filter), by username or name',
      // Holders of the activity log see who acted without needing the users page.
      access: permission(activities.permission),
      query: operatorQuery,
      responses: { 200: z.array(operatorSchema) },
      handler: async ({ query }) => ok(await findOperators(db, query)),
    });
    route(app, {
      method: 'GET',
      url: `${BASE}/:id`,
      tags: ['activities'],
      summary: 'One activity',
      access: permission(activities.permission),
      params: z.object({ id: z.string() }),
      responses: { 200: activitySchema },
      handler: async ({ params, principal }) => ok(await readActivity(db, { principal, id: params.id })),
    });
  },
};
