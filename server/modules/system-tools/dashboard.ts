import type { FastifyInstance } from 'fastify';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { ok } from '../../core/envelope.ts';
import { can, requireStaff } from '../../core/principal.ts';
import type { Db } from '../../db/index.ts';
import { failedJobs, queueCounts } from './queueCounts.ts';

const DAYS = 30;
const RECENT = 10;

/**
 * `GET v1/system/dashboard` (staff only): counts (users, staff, sign-ins today, failed jobs or null while
 * the queues are unavailable), sign-ins per UTC day for the last 30 days, and the latest activity for
 * holders of `system.users.activities` (an empty list for everyone else).
 */
export function registerDashboardRoutes(app: FastifyInstance, db: Db): void {
  app.get(
    '/api/v1/system/dashboard',
    { schema: { tags: ['system'], summary: 'Dashboard figures: counts, sign-ins per day, recent activity' } },
    async (request) => {
      const principal = await requireStaff(request);
      const { rows: counts } = await db.query<{ users: string; staff: string; today: string }>(
        `SELECT (SELECT count(*) FROM users)::text AS users,
                (SELECT count(*) FROM staff)::text AS staff,
                (SELECT count(*) FROM activity_logs
                  WHERE action = 'auth.login' AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::text AS today`,
      );
      const { rows: days } = await db.query<{ day: string; n: string }>(
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
      const recent = can(principal, PERMISSION.usersActivities) ? await recentActivity(db) : [];
      const row = counts[0]!;
      return ok({
        counts: {
          users: Number(row.users),
          staff: Number(row.staff),
          sign_ins_today: Number(row.today),
          failed_jobs: failedJobs(await queueCounts(db).catch(() => null)),
        },
        sign_ins: days.map((d) => ({ day: d.day, count: Number(d.n) })),
        recent_activity: recent,
      });
    },
  );
}

async function recentActivity(db: Db) {
  const { rows } = await db.query<{
    id: string;
    action: string;
    subject_type: string | null;
    subject_id: string | null;
    created_at: Date | string;
    operator_id: string | null;
    username: string | null;
    name: string | null;
  }>(
    `SELECT a.id, a.action, a.subject_type, a.subject_id, a.created_at, u.id AS operator_id, u.username, u.name
       FROM activity_logs a LEFT JOIN users u ON u.id = a.operator_id
      ORDER BY a.created_at DESC, a.id DESC LIMIT ${RECENT}`,
  );
  return rows.map((r) => ({
    id: String(r.id),
    action: r.action,
    subject_type: r.subject_type,
    subject_id: r.subject_id,
    operator: r.operator_id ? { id: String(r.operator_id), username: r.username, name: r.name } : null,
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  }));
}
