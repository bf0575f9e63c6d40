import type { Resource } from '../../resources/define.ts';
import type { Queryable } from '../db/index.ts';
import type { ListQuery } from './list/query.ts';
import { selectColumns } from './list/records.ts';
import { fieldByName, ident, joinTableOf } from './schema/fields.ts';
import { valueSql, whereSql, type Row, type Where } from './system-where.ts';
import type { Principal } from '../core/principal.ts';
import { liveSql, rowScope, scopeSql, UNRESTRICTED } from './scope.ts';
import { treeIds } from './tree.ts';

export { NOW, type Among, type Condition, type Row, type Where } from './system-where.ts';

/**
 * The engine's tables as the system sees them: what module code reads and writes outside a caller's
 * permission (sign-in finding a user by name, a staff hook checking the last administrator, the dashboard's
 * counts once its route has checked the page's permission). Every module reaches the tables of the registry's
 * resources, their join tables and the activity log through the operations (operations.ts) or through this
 * seam, never with its own SQL (tests/integration/engine-seam.test.ts), so a rule the engine adds (data
 * scopes, trash, versions) has one place to hold on these paths too. Example:
 *
 * ```ts
 * const system = asSystem(tx);
 * const admin = await system.find(staff, { where: { user_id: userId, is_admin: 1, state: true } });
 * await system.update(users, { where: { id: userId }, set: { last_login_at: NOW } });
 * ```
 *
 * Column names come from code, never from a request; values always travel as parameters.
 */
export function asSystem(db: Queryable) {
  return {
    /** The first row matching `where` (ordered by `orderBy`, else by id), or null; `lock` takes FOR UPDATE. */
    async find<T = Row>(resource: Resource, query: Query): Promise<T | null> {
      const [row] = await this.list<T>(resource, { ...query, limit: 1 });
      return row ?? null;
    },

    /** The rows matching `where`, with the `columns` asked (all by default). */
    async list<T = Row>(
      resource: Resource,
      { where = {}, columns, orderBy, limit, offset, lock = false }: Query = {},
    ): Promise<T[]> {
      const params: unknown[] = [];
      const select = columns ? columns.map(ident).join(', ') : '*';
      const order = (orderBy ?? [['id', 'asc']])
        .map(([column, dir]) => `${ident(column)} ${dir === 'desc' ? 'DESC' : 'ASC'}`)
        .join(', ');
      const page = `${limit === undefined ? '' : ` LIMIT ${Math.trunc(limit)}`}${offset ? ` OFFSET ${Math.trunc(offset)}` : ''}`;
      const { rows } = await db.query<T>(
        `SELECT ${select} FROM ${ident(resource.table)}${liveWhere(resource, where, params)} ORDER BY ${order}${page}${lock ? ' FOR UPDATE' : ''}`,
        params,
      );
      return rows;
    },

    /**
     * One page of a list query in the contract's language (list/query.ts `parseListQuery`) and the total,
     * with the columns the API reads (no write-only ones), for a module that lists a resource the engine
     * mounts no routes for (the activity log).
     */
    async page<T = Row>(resource: Resource, q: ListQueryPart): Promise<{ rows: T[]; total: number }> {
      const table = ident(resource.table);
      const offset = (q.page - 1) * q.size;
      const { rows } = await db.query<T>(
        `SELECT ${selectColumns(resource)} FROM ${table} ${q.where} ${q.orderBy} LIMIT ${q.size} OFFSET ${offset}`,
        q.params,
      );
      const counted = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${table} ${q.where}`,
        q.params,
      );
      return { rows, total: Number(counted.rows[0]!.n) };
    },

    /** One row by id with the columns the API reads (as `page`), or null. */
    async read<T = Row>(resource: Resource, id: string): Promise<T | null> {
      const { rows } = await db.query<T>(
        `SELECT ${selectColumns(resource)} FROM ${ident(resource.table)}${liveWhere(resource, { id }, [])}`,
        [id],
      );
      return rows[0] ?? null;
    },

    /**
     * How many rows match `where`; with `viewer`, only those in the viewer's data scope (scope.ts): a
     * figure shown to a caller (the dashboard's) counts what that caller may see.
     */
    async count(
      resource: Resource,
      where: Where = {},
      { viewer }: { viewer?: Principal } = {},
    ): Promise<number> {
      const params: unknown[] = [];
      let match = liveWhere(resource, where, params);
      const scope = viewer ? await rowScope(db, resource, viewer) : UNRESTRICTED;
      const inScope = scopeSql(resource, scope, (value) => `$${params.push(value)}`, '', 'all');
      if (inScope) match = match ? `${match} AND ${inScope}` : ` WHERE ${inScope}`;
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${ident(resource.table)}${match}`,
        params,
      );
      return Number(rows[0]!.n);
    },

    /** Whether any row matches `where`. */
    async exists(resource: Resource, where: Where): Promise<boolean> {
      const params: unknown[] = [];
      const { rows } = await db.query(
        `SELECT 1 FROM ${ident(resource.table)}${liveWhere(resource, where, params)} LIMIT 1`,
        params,
      );
      return rows.length > 0;
    },

    /**
     * Rows per UTC day over the last `days` days (today included), oldest first, days without rows as 0:
     * `{ day: 'YYYY-MM-DD', count }`, counted by the timestamp `column`.
     */
    async countPerDay(
      resource: Resource,
      { where = {}, column = 'created_at', days }: { where?: Where; column?: string; days: number },
    ): Promise<{ day: string; count: number }[]> {
      const params: unknown[] = [days];
      const at = `t.${ident(column)}`;
      const match = liveWhere(resource, where, params, 't.').replace(/^ WHERE /, ' AND ');
      const { rows } = await db.query<{ day: string; n: string }>(
        `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(t.id)::text AS n
           FROM generate_series(
                  (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $1 - 1)),
                  date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') AS d(day)
           LEFT JOIN ${ident(resource.table)} t ON ${at} >= d.day AT TIME ZONE 'UTC'
                AND ${at} < (d.day + interval '1 day') AT TIME ZONE 'UTC'${match}
          GROUP BY d.day ORDER BY d.day`,
        params,
      );
      return rows.map((d) => ({ day: d.day, count: Number(d.n) }));
    },

    /**
     * The ids of a tree over the self-reference `parentColumn`: `down` gives `ids` and everything under them,
     * `up` gives `ids` and every ancestor to the root. UNION (not UNION ALL): a cycle cannot loop forever.
     */
    treeIds(
      resource: Resource,
      options: { ids: readonly string[]; direction: 'down' | 'up'; parentColumn?: string },
    ): Promise<string[]> {
      return treeIds(db, resource, options);
    },

    /**
     * The links of a many-to-many field (`role_ids` on staff: staff_roles): `{ owner, target }` pairs for the
     * given owner ids, or for the given target ids with `by: 'target'`.
     */
    async links(
      resource: Resource,
      { field, ids, by = 'owner' }: { field: string; ids: readonly string[]; by?: 'owner' | 'target' },
    ): Promise<{ owner: string; target: string }[]> {
      if (ids.length === 0) return [];
      const join = joinTableOf(resource, fieldByName(resource, field)!);
      const key = by === 'owner' ? join.ownerColumn : join.targetColumn;
      const { rows } = await db.query<{ owner: string; target: string }>(
        `SELECT ${ident(join.ownerColumn)}::text AS owner, ${ident(join.targetColumn)}::text AS target
           FROM ${ident(join.table)} WHERE ${ident(key)} = ANY($1::bigint[])`,
        [ids],
      );
      return rows;
    },

    /** Removes one link of a many-to-many field (a role taken from a staff member), without an audit row. */
    async unlink(
      resource: Resource,
      { field, owner, target }: { field: string; owner: string; target: string },
    ): Promise<void> {
      const join = joinTableOf(resource, fieldByName(resource, field)!);
      await db.query(
        `DELETE FROM ${ident(join.table)} WHERE ${ident(join.ownerColumn)} = $1 AND ${ident(join.targetColumn)} = $2`,
        [owner, target],
      );
    },

    /**
     * Adds links of a many-to-many field for one owner (`role_ids` of a staff record created by OpenID
     * Connect's auto_create); targets that do not exist are skipped. Answers the targets linked.
     */
    async addLinks(
      resource: Resource,
      { field, owner, targets }: { field: string; owner: string; targets: readonly string[] },
    ): Promise<string[]> {
      if (targets.length === 0) return [];
      const spec = fieldByName(resource, field)!;
      const join = joinTableOf(resource, spec);
      const { rows } = await db.query<{ target: string }>(
        `INSERT INTO ${ident(join.table)} (${ident(join.ownerColumn)}, ${ident(join.targetColumn)})
         SELECT $1::bigint, t.id FROM ${ident(join.targetTable)} t WHERE t.id = ANY($2::bigint[])
         ON CONFLICT DO NOTHING RETURNING ${ident(join.targetColumn)}::text AS target`,
        [owner, targets],
      );
      return rows.map((r) => r.target);
    },

    /**
     * Sets columns of the rows matching `where` as the system, without an audit row: for columns that are
     * bookkeeping rather than a change somebody made to the record (a sign-in time, a password hash, an
     * invitation), whose audit the calling module writes itself. Returns how many rows changed.
     */
    async update(resource: Resource, { where, set }: { where: Where; set: Row }): Promise<number> {
      const params: unknown[] = [];
      const assignments = Object.entries(set).map(
        ([column, value]) => `${ident(column)} = ${valueSql(value, params)}`,
      );
      const result = await db.query(
        `UPDATE ${ident(resource.table)} SET ${assignments.join(', ')}${whereSql(where, params)}`,
        params,
      );
      return result.rowCount;
    },

    /** Inserts one row as the system and answers the `returning` columns (id by default). */
    async insert<T = { id: string }>(
      resource: Resource,
      values: Row,
      { returning = ['id'] }: { returning?: readonly string[] } = {},
    ): Promise<T> {
      const params: unknown[] = [];
      const columns = Object.keys(values);
      const { rows } = await db.query<T>(
        `INSERT INTO ${ident(resource.table)} (${columns.map(ident).join(', ')})
         VALUES (${columns.map((c) => valueSql(values[c], params)).join(', ')})
         RETURNING ${returning.map(ident).join(', ')}`,
        params,
      );
      return rows[0]!;
    },

    /**
     * Deletes the rows matching `where`, at most `limit` of them (oldest ids first) when given; returns how
     * many went.
     */
    async remove(resource: Resource, { where, limit }: { where: Where; limit?: number }): Promise<number> {
      const params: unknown[] = [];
      const table = ident(resource.table);
      const match = whereSql(where, params);
      const sql =
        limit === undefined
          ? `DELETE FROM ${table}${match}`
          : `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table}${match} ORDER BY id LIMIT ${Math.trunc(limit)})`;
      const result = await db.query(sql, params);
      return result.rowCount;
    },
  };
}

/**
 * `whereSql` over a resource's live rows: the system's reads (find, list, exists, count) see no trashed
 * record (scope.ts `liveSql`), so a record in the trash signs nobody in, grants nothing and holds nothing.
 */
function liveWhere(resource: Resource, where: Where, params: unknown[], prefix = ''): string {
  const match = whereSql(where, params, prefix);
  const live = liveSql(resource, prefix);
  if (!live) return match;
  return match ? `${match} AND ${live}` : ` WHERE ${live}`;
}

/** What `page` takes of a parsed list query (list/query.ts). */
export type ListQueryPart = Pick<ListQuery, 'where' | 'params' | 'orderBy' | 'page' | 'size'>;

export interface Query {
  where?: Where;
  columns?: readonly string[];
  orderBy?: readonly (readonly [column: string, dir: 'asc' | 'desc'])[];
  limit?: number;
  offset?: number;
  lock?: boolean;
}
