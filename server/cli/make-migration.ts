import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Resource } from '../../resources/define.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { MigrationRefused, makeMigration } from '../engine/schema/make-migration.ts';

/**
 * `npm run make:migration <resource> [-- --baseline] [--allow-drop] [--dir <migrations dir>] [--registry <module>]`
 * Writes the next SQL migration for a registered resource (CREATE TABLE, or ALTER for a changed schema)
 * and its snapshot. `--baseline` only records the snapshot (for tables an earlier migration created).
 * `--allow-drop` lets it drop columns and join tables no longer declared (their data is lost); without it
 * the command refuses, like it refuses a NOT NULL column without a default or a `backfill`: a message
 * saying what to change, exit code 1, nothing written. Run again after a fix: the migration the previous
 * run wrote is replaced while it is unapplied (the database named by DATABASE_URL is asked; when it cannot be
 * reached, a new migration is written instead).
 * `--first-version <n>` numbers the file at least n (for a range of versions reserved for a branch).
 * `--registry` names a module exporting `resources` (default resources/index.ts), e.g. the test fixtures.
 */
const USAGE =
  'Usage: npm run make:migration <resource> [-- --allow-drop --baseline --first-version <n> --dir <dir> --registry <module>]';

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      baseline: { type: 'boolean', default: false },
      'allow-drop': { type: 'boolean', default: false },
      dir: { type: 'string' },
      registry: { type: 'string' },
      'first-version': { type: 'string' },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`, 2);
}
const { positionals, values } = parsed;
const name = positionals[0];
if (!name) fail(USAGE, 2);

const registryFile = path.resolve(values.registry ?? 'resources/index.ts');
let registry: Resource[] | undefined;
try {
  const mod = (await import(pathToFileURL(registryFile).href)) as Record<string, unknown>;
  registry = (mod.resources ?? mod.fixtureResources) as Resource[] | undefined;
} catch (error) {
  fail(`Could not load ${path.relative('.', registryFile)}: ${(error as Error).message}`);
}
const resource = registry?.find((r) => r.name === name);
if (!registry || !resource)
  fail(`No resource "${name}" is registered in ${path.relative('.', registryFile)}.`);

const dir = path.resolve(values.dir ?? MIGRATIONS_DIR);
// 0002 is reserved for the auth migration in the main directory.
// `--first-version 60` starts numbering there (a range reserved for this branch; gaps are fine).
const firstVersion = Math.max(dir === MIGRATIONS_DIR ? 3 : 1, Number(values['first-version'] ?? 0) || 0);
if (fs.existsSync('.env')) process.loadEnvFile('.env');
const applied = dir === MIGRATIONS_DIR ? await appliedMigrations(process.env.DATABASE_URL) : null;
let result;
try {
  result = makeMigration({
    resource,
    registry,
    dir,
    baseline: values.baseline,
    firstVersion,
    allowDrop: values['allow-drop'],
    applied,
  });
} catch (error) {
  if (error instanceof MigrationRefused) fail(error.message);
  fail(`make:migration ${name} failed: ${(error as Error).message}`);
}
const rel = (p: string) => path.relative('.', p);
const replaced = result.replaced ? ` (replaces the unapplied ${path.basename(result.replaced)})` : '';
const messages = {
  created: `Created ${rel(result.file ?? '')}${replaced} and ${rel(result.snapshot)}. Review the SQL, then run npm run db:migrate.`,
  altered: `Wrote ${rel(result.file ?? '')}${replaced} (changes) and updated ${rel(result.snapshot)}. Review the SQL.`,
  unchanged: result.replaced
    ? `No changes left for "${name}": removed the unapplied ${path.basename(result.replaced)}.`
    : `No changes for "${name}".`,
  baseline: `Recorded ${rel(result.snapshot)} as the baseline of "${name}" (no SQL written).`,
};
process.stdout.write(`${messages[result.status]}\n`);

/**
 * The migrations a PostgreSQL database (DATABASE_URL) has applied; null when there is none, 'unknown' when it
 * cannot be reached within 3 s (then no migration is rewritten: when in doubt, a new one). (A PGlite directory is not opened: a running server may hold it; applying a
 * migration clears its pending marker instead, server/db/migrate.ts.)
 */
async function appliedMigrations(url: string | undefined): Promise<Set<string> | null | 'unknown'> {
  if (!url) return null;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
    return new Set(rows.map((r) => r.name));
  } catch (error) {
    // A reachable database with no schema_migrations table has applied nothing.
    return (error as { code?: string }).code === '42P01' ? new Set() : 'unknown';
  } finally {
    await client.end().catch(() => {});
  }
}
