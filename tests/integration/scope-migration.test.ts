import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Migration 0114 (issue 30) on a database with data: existing roles become `all` (their members keep
 * seeing every row), existing records gain `created_by` / `updated_by` from their `<resource>.create` audit
 * row where the activity log has one and stay null otherwise. On PGlite and PostgreSQL.
 */
let t: TestDb;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestDb({ migrated: false });
  const all = readMigrations();
  await migrate(
    t.db,
    all.filter((m) => Number(m.version) < 114),
  );
  const one = async (sql: string, params: unknown[]) =>
    (await t.db.query<{ id: string }>(`${sql} RETURNING id::text AS id`, params)).rows[0]!.id;
  ids.user = await one(`INSERT INTO users (username, name) VALUES ('creator', 'Creator')`, []);
  ids.role = await one(`INSERT INTO roles (name, permissions) VALUES ('Old role', '{"menu_ids":[]}')`, []);
  ids.audited = await one(`INSERT INTO departments (name, parent_id) VALUES ('Audited', 0)`, []);
  ids.silent = await one(`INSERT INTO departments (name, parent_id) VALUES ('Silent', 0)`, []);
  await t.db.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id) VALUES ($1, 'departments.create', 'departments', $2)`,
    [ids.user, ids.audited],
  );
  await migrate(t.db, all);
}, 180_000);
afterAll(() => t.drop());

describe('migration 0114 on existing data', () => {
  it('existing roles have the `all` scope and no custom departments', async () => {
    const { rows } = await t.db.query<{ data_scope: string }>('SELECT data_scope FROM roles WHERE id = $1', [
      ids.role,
    ]);
    expect(rows[0]!.data_scope).toBe('all');
    const links = await t.db.query('SELECT 1 FROM roles_departments WHERE role_id = $1', [ids.role]);
    expect(links.rows).toEqual([]);
  });

  it('existing records take their creator from the audit log, or stay null', async () => {
    const { rows } = await t.db.query<{ id: string; created_by: string | null; updated_by: string | null }>(
      'SELECT id::text AS id, created_by::text AS created_by, updated_by::text AS updated_by FROM departments WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[ids.audited, ids.silent]],
    );
    expect(rows).toEqual([
      { id: ids.audited, created_by: ids.user, updated_by: ids.user },
      { id: ids.silent, created_by: null, updated_by: null },
    ]);
  });
});
