import { activities } from '../../../resources/activities.ts';
import { isIdString } from '../../../resources/define.ts';
import { users } from '../../../resources/users.ts';
import type { Paged } from '../../../schemas/pagination.ts';
import { AppError } from '../../core/errors.ts';
import { paged } from '../../core/paged.ts';
import type { Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { escapeLike, parseListQuery, type RawQuery } from '../../engine/list/query.ts';
import { toWire, type WireRecord } from '../../engine/list/wire.ts';
import { asSystem } from '../../engine/system-access.ts';
import { withNames } from './names.ts';
import { operationLinks } from './undo-links.ts';

/**
 * The activity log's operations, Fastify-free (the routes in ./index.ts check the permission and call these).
 * Every row answers with its operator embedded and the names its changes refer to (`withNames`), which
 * depend on what `principal` may read.
 */

/** Most operators the filter offers per search. */
const OPERATOR_CHOICES = 20;
type Operator = { id: string; username: string; name: string | null };

/** One page of the log: the engine's list query language over the `activities` resource. */
export async function listActivities(
  db: Queryable,
  { principal, query }: { principal: Principal; query: RawQuery },
): Promise<Paged<WireRecord>> {
  const q = parseListQuery(activities, query);
  const { rows, total } = await asSystem(db).page(activities, q);
  const data = await operationLinks(
    db,
    principal,
    await withNames(db, principal, await withOperators(db, rows)),
  );
  return paged(data, { total, page: q.page, size: q.size });
}

/** One row of the log; 404 when there is none (or the id is not one). */
export async function readActivity(
  db: Queryable,
  { principal, id }: { principal: Principal; id: string },
): Promise<WireRecord> {
  if (!/^\d{1,19}$/.test(id)) throw AppError.notFound();
  const row = await asSystem(db).read(activities, id);
  if (!row) throw AppError.notFound();
  const named = await withNames(db, principal, await withOperators(db, [row]));
  return (await operationLinks(db, principal, named))[0]!;
}

/**
 * Operators that appear in the log whose username or name contains `q` (at most OPERATOR_CHOICES), and the
 * user `id` first whether or not it acted (the filter shows the chosen operator).
 */
export async function findOperators(
  db: Queryable,
  { q = '', id }: { q?: string; id?: string },
): Promise<{ id: string; username: string; name: string | null }[]> {
  const system = asSystem(db);
  const columns = ['id', 'username', 'name'];
  const chosen = id && isIdString(id) ? await system.find<Operator>(users, { where: { id }, columns }) : null;
  const like = { like: `%${escapeLike(q.trim())}%` };
  const acted = await system.list<Operator>(users, {
    where: {
      id: { among: { resource: activities, column: 'operator_id' } },
      or: [{ username: like }, { name: like }],
      ...(chosen ? { username: { not: chosen.username } } : {}),
    },
    columns,
    orderBy: [['username', 'asc']],
    limit: OPERATOR_CHOICES - (chosen ? 1 : 0),
  });
  return [...(chosen ? [chosen] : []), ...acted].map((u) => ({ ...u, id: String(u.id) }));
}

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
    const found = await asSystem(db).list<Operator>(users, {
      where: { id: { in: ids } },
      columns: ['id', 'username', 'name'],
    });
    for (const u of found) operators.set(String(u.id), { ...u, id: String(u.id) });
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
