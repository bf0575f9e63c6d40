import type { FastifyRequest } from 'fastify';
import { activities } from '../../../resources/activities.ts';
import { z } from 'zod';
import { isIdString } from '../../../resources/define.ts';
import { ok } from '../../core/envelope.ts';
import { validate } from '../../core/validate.ts';
import { AppError } from '../../core/errors.ts';
import { paged } from '../../core/paged.ts';
import { requirePermission } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { ident } from '../../engine/fields.ts';
import { escapeLike, parseListQuery, type RawQuery } from '../../engine/query.ts';
import { selectColumns } from '../../engine/records.ts';
import { toWire, type WireRecord } from '../../engine/wire.ts';
import type { AppModule } from '../../core/app-module.ts';
import { withNames } from './names.ts';

export { trimActivityLog } from './trim.ts';

const BASE = `/api/${activities.endpoint}`;
const operatorQuery = z.object({
  q: z.string().max(100, { message: 'validation.too_long' }).optional(),
  id: z
    .string()
    .regex(/^\d{1,19}$/, { message: 'validation.invalid' })
    .refine(isIdString, { message: 'validation.invalid' })
    .optional(),
});
/** Most operators the filter offers per search. */
const OPERATOR_CHOICES = 20;

/**
 * The activity log (`GET v1/user/logs`, `GET v1/user/logs/<id>`, `GET v1/user/logs/operators?q=&id=`): the engine's list query language on the
 * `activities` resource (paging; filters by operator_id, action, subject_type, created_at between ...), each
 * row with its operator embedded as `{ id, username, name }`, its subject's representation (`subject`) and the
 * names of the records its changes refer to (`names`, see ./names.ts). Read-only: there is no write route at all,
 * rows are written by the audit of every operation and removed only by `trimActivityLog`.
 */
export const activitiesModule: AppModule = {
  name: 'activities',
  register(app, { db }) {
    app.get(
      BASE,
      { schema: { tags: ['activities'], summary: 'Activity log (list query of the contract)' } },
      async (request) => {
        const principal = await requirePermission(request, activities.permission);
        const q = parseListQuery(activities, (request.query ?? {}) as RawQuery);
        const table = ident(activities.table);
        const offset = (q.page - 1) * q.size;
        const { rows } = await db.query(
          `SELECT ${selectColumns(activities)} FROM ${table} ${q.where} ${q.orderBy} LIMIT ${q.size} OFFSET ${offset}`,
          q.params,
        );
        const counted = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} ${q.where}`,
          q.params,
        );
        const total = Number(counted.rows[0]!.n);
        const data = await withNames(db, principal, await withOperators(db, rows));
        return ok(paged(data, { total, page: q.page, size: q.size }));
      },
    );
    app.get<{ Querystring: { q?: string; id?: string } }>(
      `${BASE}/operators`,
      {
        schema: {
          tags: ['activities'],
          summary: 'Operators that appear in the log (for the operator filter), by username or name',
          querystring: {
            type: 'object',
            properties: {
              q: { type: 'string', maxLength: 100 },
              id: { type: 'string', pattern: '^\\d{1,19}$' },
            },
          },
        },
      },
      async (request) => {
        // Holders of the activity log see who acted without needing the users page.
        await requirePermission(request, activities.permission);
        const { q = '', id } = validate(operatorQuery, request.query);
        const { rows } = await db.query<{ id: string; username: string; name: string | null }>(
          `SELECT u.id::text AS id, u.username, u.name FROM users u
            WHERE (u.id = $3::bigint OR (
                   EXISTS (SELECT 1 FROM ${ident(activities.table)} a WHERE a.operator_id = u.id)
               AND (u.username ILIKE $1 OR u.name ILIKE $1)))
            ORDER BY u.id = $3::bigint DESC, u.username LIMIT $2`,
          [`%${escapeLike(q.trim())}%`, OPERATOR_CHOICES, id ?? null],
        );
        return ok(rows);
      },
    );
    app.get<{ Params: { id: string } }>(
      `${BASE}/:id`,
      { schema: { tags: ['activities'], summary: 'One activity' } },
      async (request: FastifyRequest<{ Params: { id: string } }>) => {
        const principal = await requirePermission(request, activities.permission);
        const { id } = request.params;
        if (!/^\d{1,19}$/.test(id)) throw AppError.notFound();
        const { rows } = await db.query(
          `SELECT ${selectColumns(activities)} FROM ${ident(activities.table)} WHERE "id" = $1`,
          [id],
        );
        if (rows.length === 0) throw AppError.notFound();
        return ok((await withNames(db, principal, await withOperators(db, rows)))[0]);
      },
    );
  },
};

/** Rows as the contract sends them, each with `operator: { id, username, name }` (null once deleted). */
async function withOperators(db: Queryable, rows: Record<string, unknown>[]): Promise<WireRecord[]> {
  const records = rows.map(toWire);
  const ids = [
    ...new Set(
      records
        .map((r) => r.operator_id)
        .filter((v) => v != null)
        .map(String),
    ),
  ];
  const operators = new Map<string, { id: string; username: string; name: string | null }>();
  if (ids.length) {
    const { rows: users } = await db.query<{ id: string; username: string; name: string | null }>(
      `SELECT id, username, name FROM users WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ids,
    );
    for (const u of users) operators.set(String(u.id), { ...u, id: String(u.id) });
  }
  return records.map((r) => {
    const operatorId = r.operator_id == null ? null : String(r.operator_id);
    return {
      ...r,
      operator_id: operatorId,
      operator: operatorId ? (operators.get(operatorId) ?? null) : null,
    };
  });
}
