import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/migrate.ts';
import '../setup/db-template.ts';

export interface TestDb {
  db: Db;
  /** Connection URL of the throwaway database (PostgreSQL only), for a second server process. */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: PGlite by default, or a new database in the PostgreSQL
 * cluster named by DATABASE_URL (as `npm run test:pg` sets), dropped afterwards. A migrated database is a
 * copy of the template tests/setup/db-template.ts migrated once per run (a PGlite data directory, or
 * `CREATE DATABASE ... TEMPLATE`); `migrate()` then only confirms that nothing is pending. Without that
 * global setup (or with `migrated: false`, empty) it is created from scratch.
 */
export async function createTestDb({ migrated = true }: { migrated?: boolean } = {}): Promise<TestDb> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const root = migrated ? inject('pgliteTemplateRoot') : null;
    if (!root) {
      const db = await openPglite(null);
      if (migrated) await migrate(db);
      return { db, url: null, drop: () => db.close() };
    }
    const dir = path.join(root, `db-${crypto.randomBytes(6).toString('hex')}`);
    fs.cpSync(path.join(root, 'template'), dir, { recursive: true });
    const db = await openPglite(dir);
    await migrate(db);
    return {
      db,
      url: null,
      async drop() {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const template = migrated ? inject('pgTemplate') : null;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
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
