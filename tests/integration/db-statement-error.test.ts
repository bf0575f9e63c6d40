import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * An error PostgreSQL answers (a missing table, a constraint, a bad value) fails its statement and keeps the
 * pooled connection: pg's own `pool.query` would close it, and the reconnection costs a backend and can be
 * refused under a connection limit (a start's first read of schema_migrations on a fresh database failed
 * that way with `CONNECTION LIMIT 1`). A connection the client cannot use any more is still replaced.
 * PGlite has one connection in the process: PostgreSQL only.
 */
describe.skipIf(!process.env.DATABASE_URL)('a statement error keeps its connection (PostgreSQL)', () => {
  let t: TestDb;
  let db: Db;
  const backend = async () =>
    (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  beforeAll(async () => {
    t = await createTestDb({ migrated: false });
    db = await openPostgres(t.url!, { max: 1 });
  });
  afterAll(async () => {
    await db.close();
    await t.drop();
  });

  it.each([
    ['a missing table', 'SELECT version FROM no_such_table', '42P01'],
    ['a bad value', `SELECT 'x'::int`, '22P02'],
    [
      'a unique violation',
      `CREATE TEMP TABLE IF NOT EXISTS u (k int PRIMARY KEY); INSERT INTO u VALUES (1), (1)`,
      '23505',
    ],
    ['a syntax error', 'SELEC 1', '42601'],
  ])('after %s, by query and by exec', async (_, sql, code) => {
    const before = await backend();
    await expect(db.query(sql)).rejects.toMatchObject({ code });
    expect(await backend()).toBe(before);
    await expect(db.exec(sql)).rejects.toMatchObject({ code });
    expect(await backend()).toBe(before);
  });

  it('replaces a connection the server ended', async () => {
    const before = await backend();
    await expect(db.query('SELECT pg_terminate_backend(pg_backend_pid())')).rejects.toBeDefined();
    const after = await backend();
    expect(after).not.toBe(before);
  });
});
