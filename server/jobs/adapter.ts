import type { Db } from '../db/index.ts';

/** What pg-boss calls on the `db` constructor option (its own `Db` class has the same method). */
export interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Lets pg-boss run on the embedded PGlite database, which has no connection pool or connection string.
 * pg-boss sends two kinds of SQL: single statements with or without parameters (fetch, complete, schedule,
 * counts), and parameterless scripts of many statements wrapped in `BEGIN; ... COMMIT;` (schema creation,
 * migrations, maintenance under an advisory lock). A prepared statement holds one command, so the scripts go
 * through `exec` (PostgreSQL's simple query protocol) and answer no rows, which pg-boss does not read for
 * them. The adapter works over any `Db` (PostgreSQL's pool too). PGlite is one backend: a script that fails half way would leave its transaction open and block every
 * later query, so the adapter rolls it back. Example: `new PgBoss({ db: bossDbOf(db) })`.
 */
export function bossDbOf(db: Db): BossDb {
  return {
    async executeSql(text, values) {
      if ((!values || values.length === 0) && isScript(text)) {
        try {
          await db.exec(text);
        } catch (error) {
          await db.exec('ROLLBACK').catch(() => {});
          throw error;
        }
        return { rows: [] };
      }
      return db.query(text, values ?? []);
    },
  };
}

/** More than one statement: a `;` followed by more SQL (a trailing `;` alone does not count). */
function isScript(text: string): boolean {
  return /;\s*\S/.test(text.trim());
}
