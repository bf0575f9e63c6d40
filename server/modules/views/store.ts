import type { Queryable } from '../../db/index.ts';
import type { SavedView, SavedViewCreate, SavedViewUpdate } from './schemas.ts';

/** A saved_views row joined with the reading user's choices (pinned, default). */
export interface ViewRow {
  id: string;
  owner_id: string;
  resource: string;
  name: string;
  query: SavedView['query'];
  columns: string[];
  density: SavedView['density'];
  shared: SavedView['shared'];
  role_ids: string[];
  pinned: boolean;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Most views one call answers (a user's own and shared ones, over every list). */
const MAX_VIEWS = 1000;

const COLUMNS = `v.id::text AS id, v.owner_id::text AS owner_id, v.resource, v.name, v.query, v.columns,
  v.density, v.shared, v.role_ids::text[] AS role_ids, coalesce(c.pinned, false) AS pinned,
  coalesce(c.is_default, false) AS is_default, v.created_at, v.updated_at`;

/**
 * The views `userId` sees: its own, those shared with everyone and those shared with one of `roleIds`
 * (`anyOwner`: every view, for an administrator's changes), with its own choices; by resource or id.
 */
export async function selectViews(
  db: Queryable,
  {
    userId,
    roleIds,
    resource,
    id,
    anyOwner = false,
  }: { userId: string; roleIds: string[]; resource?: string | undefined; id?: string; anyOwner?: boolean },
): Promise<ViewRow[]> {
  const params: unknown[] = [userId];
  const where: string[] = [];
  if (!anyOwner) {
    params.push(roleIds);
    where.push(
      `(v.owner_id = $1 OR v.shared = 'everyone' OR (v.shared = 'roles' AND v.role_ids && $2::bigint[]))`,
    );
  }
  if (resource !== undefined) {
    params.push(resource);
    where.push(`v.resource = $${params.length}`);
  }
  if (id !== undefined) {
    params.push(id);
    where.push(`v.id = $${params.length}`);
  }
  const { rows } = await db.query<ViewRow>(
    `SELECT ${COLUMNS} FROM saved_views v
       LEFT JOIN saved_view_choices c ON c.view_id = v.id AND c.user_id = $1
      WHERE ${where.join(' AND ') || 'true'}
      ORDER BY v.resource, lower(v.name), v.id LIMIT ${MAX_VIEWS}`,
    params,
  );
  return rows.map((row) => ({
    ...row,
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
  }));
}

export async function insertView(
  db: Queryable,
  { ownerId, body }: { ownerId: string; body: SavedViewCreate },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO saved_views (owner_id, resource, name, query, columns, density, shared, role_ids)
     VALUES ($1, $2, $3, $4::jsonb, $5::text[], $6, $7, $8::bigint[]) RETURNING id::text AS id`,
    [
      ownerId,
      body.resource,
      body.name,
      JSON.stringify(body.query),
      body.columns,
      body.density,
      body.shared,
      body.shared === 'roles' ? body.role_ids : [],
    ],
  );
  return rows[0]!.id;
}

const SETTERS: Record<keyof Omit<SavedViewUpdate, 'pinned' | 'is_default'>, string> = {
  name: 'name = $',
  query: 'query = $::jsonb',
  columns: 'columns = $::text[]',
  density: 'density = $',
  shared: 'shared = $',
  role_ids: 'role_ids = $::bigint[]',
};

export async function patchView(
  db: Queryable,
  { id, changes }: { id: string; changes: Omit<SavedViewUpdate, 'pinned' | 'is_default'> },
): Promise<void> {
  const params: unknown[] = [id];
  const sets = ['updated_at = now()'];
  for (const [key, template] of Object.entries(SETTERS) as [keyof typeof SETTERS, string][]) {
    const value = changes[key];
    if (value === undefined) continue;
    params.push(key === 'query' ? JSON.stringify(value) : value);
    sets.push(template.replace('$', `$${params.length}`));
  }
  await db.query(`UPDATE saved_views SET ${sets.join(', ')} WHERE id = $1`, params);
}

export async function removeView(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM saved_views WHERE id = $1', [id]);
}

/** Stores a user's choices on a view; a new default replaces the user's previous default of that list. */
export async function setChoices(
  db: Queryable,
  {
    userId,
    viewId,
    resource,
    pinned,
    isDefault,
  }: {
    userId: string;
    viewId: string;
    resource: string;
    pinned?: boolean | undefined;
    isDefault?: boolean | undefined;
  },
): Promise<void> {
  if (isDefault)
    await db.query(
      'UPDATE saved_view_choices SET is_default = false WHERE user_id = $1 AND resource = $2 AND view_id <> $3',
      [userId, resource, viewId],
    );
  await db.query(
    `INSERT INTO saved_view_choices (user_id, view_id, resource, pinned, is_default)
     VALUES ($1, $2, $3, coalesce($4::boolean, false), coalesce($5::boolean, false))
     ON CONFLICT (user_id, view_id) DO UPDATE
       SET pinned = coalesce($4::boolean, saved_view_choices.pinned),
           is_default = coalesce($5::boolean, saved_view_choices.is_default)`,
    [userId, viewId, resource, pinned ?? null, isDefault ?? null],
  );
}
