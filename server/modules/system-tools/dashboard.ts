import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { ok } from '../../core/envelope.ts';
import { can, requireStaff, type Principal } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import type { Db } from '../../db/index.ts';
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
  const counts: Record<string, number | null> = {};
  const data: Record<string, unknown> = { counts };
  if (holds(PERMISSION.usersUsers)) counts.users = await countOf(db, 'SELECT count(*) AS n FROM users');
  if (holds(PERMISSION.usersStaff)) {
    counts.staff = await countOf(db, 'SELECT count(*) AS n FROM staff');
    counts.pending_invitations = await countOf(
      db,
      'SELECT count(*) AS n FROM staff WHERE user_id IS NULL AND invitation_expires_at > now()',
    );
  }
  if (holds(PERMISSION.usersActivities)) {
    counts.sign_ins_today = await countOf(
      db,
      `SELECT count(*) AS n FROM activity_logs
        WHERE action = 'auth.login' AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    );
    data.sign_ins = await signInsPerDay(db);
    data.recent_activity = await withNames(db, principal, await recentActivity(db));
  }
  if (holds(PERMISSION.systemJobs)) counts.failed_jobs = failedJobs(await queueCounts(db).catch(() => null));
  return data as z.infer<typeof dashboardSchema>;
}

async function countOf(db: Db, sql: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(sql);
  return Number(rows[0]!.n);
}

async function signInsPerDay(db: Db): Promise<{ day: string; count: number }[]> {
  const { rows } = await db.query<{ day: string; n: string }>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(a.id)::text AS n
       FROM generate_series(
              (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $1 - 1)),
              date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') AS d(day)
       LEFT JOIN activity_logs a ON a.action = 'auth.login'
            AND a.created_at >= d.day AT TIME ZONE 'UTC'
            AND a.created_at < (d.day + interval '1 day') AT TIME ZONE 'UTC'
      GROUP BY d.day ORDER BY d.day`,
    [DAYS],
  );
  return rows.map((d) => ({ day: d.day, count: Number(d.n) }));
}

async function recentActivity(db: Db) {
  const { rows } = await db.query<{
    id: string;
    action: string;
    subject_type: string | null;
    subject_id: string | null;
    changes: unknown;
    created_at: Date | string;
    operator_id: string | null;
    username: string | null;
    name: string | null;
  }>(
    `SELECT a.id, a.action, a.subject_type, a.subject_id, a.changes, a.created_at, u.id AS operator_id, u.username, u.name
       FROM activity_logs a LEFT JOIN users u ON u.id = a.operator_id
      ORDER BY a.created_at DESC, a.id DESC LIMIT ${RECENT}`,
  );
  return rows.map((r) => ({
    id: String(r.id),
    action: r.action,
    subject_type: r.subject_type,
    subject_id: r.subject_id == null ? null : String(r.subject_id),
    changes: typeof r.changes === 'string' ? (JSON.parse(r.changes) as unknown) : (r.changes ?? null),
    operator: r.operator_id ? { id: String(r.operator_id), username: r.username, name: r.name } : null,
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  }));
}
