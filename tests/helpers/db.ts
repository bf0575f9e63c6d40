import crypto from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../server/db/index.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/migrate.ts';

export interface TestDb {
  db: Db;
  /** Connection URL of the throwaway database (PostgreSQL only), for a second server process. */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database in the
 * PostgreSQL cluster named by DATABASE_URL (as `npm run test:pg` sets), dropped afterwards.
 */
export async function createTestDb({ migrated = true }: { migrated?: boolean } = {}): Promise<TestDb> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const db = await openPglite(null);
    if (migrated) await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), { max: 5 });
  if (migrated) await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
