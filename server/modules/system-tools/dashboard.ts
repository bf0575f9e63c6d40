import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { activities } from '../../../resources/activities.ts';
import { staff } from '../../../resources/staff.ts';
import { users } from '../../../resources/users.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { ok } from '../../core/envelope.ts';
import { can, requireStaff, type Principal } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import type { Db } from '../../db/index.ts';
import { asSystem, NOW } from '../../engine/system-access.ts';
import { withNames } from '../activities/index.ts';
import { failedJobs, queueCounts } from './queue-counts.ts';

const DAYS = 30;
/** Every part but `counts` is there only with the permission of the page it summarises (see below). */
const dashboardSchema = z.object({
  counts: z.object({
    users: z.number().int().optional(),
    staff: z.number().int().optional(),
    pending_invitations: z.number().int().optional(),
    sign_ins_today: z.number().int().optional(),
    failed_jobs: z.number().int().nullable().optional(),
  }),
  sign_ins: z.array(z.object({ day: z.string(), count: z.number().int() })).optional(),
  recent_activity: z.array(z.record(z.string(), z.unknown())).optional(),
});
const RECENT = 10;

/**
 * `GET v1/system/dashboard` (staff only). Each figure needs the permission of the page it summarises and is
 * left out of the answer otherwise: `counts.users` (system.users.users), `counts.staff` and
 * `counts.pending_invitations` (unregistered staff whose invitation still works; system.users.staff),
 * `counts.sign_ins_today`, `sign_ins` (per UTC day, last 30 days) and `recent_activity` (all from the activity
 * log, system.users.activities; each row with `changes`, `subject` and `names` as the activity log sends
 * them), `counts.failed_jobs` (system.system.jobs; null while the queues are unavailable).
 */
export function registerDashboardRoutes(app: FastifyInstance, db: Db): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/system/dashboard',
    tags: ['system'],
    summary: 'Dashboard figures the caller may see: counts, sign-ins, activity',
    access: requireStaff,
    responses: { 200: dashboardSchema },
    handler: async ({ principal }) => ok(await readDashboard(db, principal)),
  });
}

/** The dashboard figures `principal` may see (the operation behind the route; see above for which). */
export async function readDashboard(db: Db, principal: Principal): Promise<z.infer<typeof dashboardSchema>> {
  const holds = (name: string) => can(principal, name);
  const system = asSystem(db);
  const counts: Record<string, number | null> = {};
  const data: Record<string, unknown> = { counts };
  if (holds(PERMISSION.usersUsers)) counts.users = await system.count(users);
  if (holds(PERMISSION.usersStaff)) {
    // The staff the caller's data scope holds (issue 30), as the staff list shows them.
    counts.staff = await system.count(staff, {}, { viewer: principal });
    counts.pending_invitations = await system.count(
      staff,
      { user_id: null, invitation_expires_at: { gt: NOW } },
      { viewer: principal },
    );
  }
  if (holds(PERMISSION.usersActivities)) {
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    counts.sign_ins_today = await system.count(activities, {
      action: 'auth.login',
      created_at: { gte: today },
    });
    data.sign_ins = await system.countPerDay(activities, { where: { action: 'auth.login' }, days: DAYS });
    data.recent_activity = await withNames(db, principal, await recentActivity(db));
  }
  if (holds(PERMISSION.systemJobs)) counts.failed_jobs = failedJobs(await queueCounts(db).catch(() => null));
  return data as z.infer<typeof dashboardSchema>;
}

async function recentActivity(db: Db) {
  const system = asSystem(db);
  const rows = await system.list<{
    id: string;
    action: string;
    subject_type: string | null;
    subject_id: string | null;
    changes: unknown;
    created_at: Date | string;
    operator_id: string | null;
  }>(activities, {
    columns: ['id', 'action', 'subject_type', 'subject_id', 'changes', 'created_at', 'operator_id'],
    orderBy: [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ],
    limit: RECENT,
  });
  const operatorIds = [
    ...new Set(rows.flatMap((r) => (r.operator_id == null ? [] : [String(r.operator_id)]))),
  ];
  const operators = new Map(
    (
      await system.list<{ id: string; username: string; name: string | null }>(users, {
        where: { id: { in: operatorIds } },
        columns: ['id', 'username', 'name'],
      })
    ).map((u) => [String(u.id), { id: String(u.id), username: u.username, name: u.name }]),
  );
  return rows.map((r) => ({
    id: String(r.id),
    action: r.action,
    subject_type: r.subject_type,
    subject_id: r.subject_id == null ? null : String(r.subject_id),
    changes: typeof r.changes === 'string' ? (JSON.parse(r.changes) as unknown) : (r.changes ?? null),
    operator: r.operator_id == null ? null : (operators.get(String(r.operator_id)) ?? null),
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  }));
}
