import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './types.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
/** Arbitrary constant shared by every server so that concurrent starts serialize on it. */
const MIGRATION_LOCK = 7_317_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/**
 * Lists the versioned SQL files (`0001_name.sql`) in order. A file's `sql` is read when first asked for: a
 * start with nothing pending reads none of them (issue 37 item 3).
 */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      let sql: string | null = null;
      return {
        version: file.slice(0, 4),
        name: file.replace(/\.sql$/, ''),
        get sql() {
          return (sql ??= fs.readFileSync(path.join(dir, file), 'utf8'));
        },
      };
    });
}

/**
 * Applies every pending migration, each in its own transaction under an advisory lock, so two servers
 * starting together apply each migration exactly once. Re-running is a no-op. Returns the names applied.
 * `stop` aborted (a signal during start-up) ends it between two migrations, never inside one.
 */
export async function migrate(db: Db, migrations = readMigrations(), stop?: AbortSignal): Promise<string[]> {
  // The usual start: everything applied already. One read tells, without a transaction per file.
  if (await allApplied(db, migrations)) return [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    // Between two migrations only: one already begun commits or rolls back first.
    if (stop?.aborted) break;
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}

/** True when schema_migrations lists every one of `migrations` (an applied version is never removed). */
async function allApplied(db: Db, migrations: readonly Migration[]): Promise<boolean> {
  // One statement at a usual start; the first one (no table yet: undefined_table) has everything to apply.
  let rows: { version: string }[];
  try {
    ({ rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations'));
  } catch (error) {
    if ((error as { code?: unknown }).code === '42P01') return false;
    throw error;
  }
  const applied = new Set(rows.map((r) => r.version));
  return migrations.every((m) => applied.has(m.version));
}
