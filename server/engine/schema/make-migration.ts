import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Resource } from '../../../resources/define.ts';
import { forgetPending, pendingMigrationOf, recordPending } from './pending-migrations.ts';
import { alterTableSql, createTableSql, unsafeChanges, type DdlOptions, type UnsafeChange } from './ddl.ts';
import { fieldsOf } from './fields.ts';
import { readSnapshot, sameSnapshot, snapshotOf, snapshotPath, type TableSnapshot } from './snapshot.ts';

export interface MakeMigrationResult {
  /** The migration written, or null (no change, or a baseline). */
  file: string | null;
  snapshot: string;
  status: 'created' | 'altered' | 'unchanged' | 'baseline';
  /** The unapplied migration this run wrote over (same version) or removed, if any. */
  replaced: string | null;
}

/**
 * The generator refused: the change would lose data or fail on a table with rows. `problems` say what and
 * how to fix it; nothing was written.
 */
export class MigrationRefused extends Error {
  constructor(
    readonly resource: string,
    readonly problems: UnsafeChange[],
  ) {
    super(
      `make:migration ${resource}: refused, nothing was written.\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
    );
  }
}

/**
 * Writes the next migration for one resource into `dir` (`NNNN_<resource>.sql`, or
 * `NNNN_<resource>_change.sql` for an ALTER) and updates its snapshot. `baseline` records the current
 * schema for a table that already exists (e.g. from 0001) without writing DDL. `firstVersion` keeps the
 * numbers reserved by other migrations free.
 *
 * Never loses data silently: a dropped column or join table needs `allowDrop`, a NOT NULL column needs a
 * default or a `backfill` on existing tables, a renamed field (`renamedFrom`) is a RENAME (MigrationRefused
 * otherwise). A run after a fix replaces the migration the previous run wrote while it is still unapplied
 * (the pending marker, see server/engine/schema/pending-migrations.ts; `applied` lists the names the database has, when
 * it could be asked; a migration committed to git, applied to any database, or found when the database could
 * not be asked is never rewritten), instead of stacking a second one.
 */
export function makeMigration({
  resource,
  registry,
  dir,
  baseline = false,
  firstVersion = 1,
  allowDrop = false,
  applied = null,
}: {
  resource: Resource;
  registry: readonly Resource[];
  dir: string;
  baseline?: boolean;
  firstVersion?: number;
  allowDrop?: boolean;
  /**
   * Migration names applied to the database; null when there is none to ask (the pending marker decides);
   * 'unknown' when there is one that could not be asked (then nothing is rewritten: a new migration instead).
   */
  applied?: ReadonlySet<string> | null | 'unknown';
}): MakeMigrationResult {
  const next = snapshotOf(resource, registry);
  const snapshotFile = snapshotPath(dir, resource.name);
  let prev = readSnapshot(dir, resource.name);
  let version: number | null = null;
  let replacing: string | null = null;
  const pending = pendingMigrationOf(dir, resource.name);
  if (pending) {
    const file = path.join(dir, `${pending.migration}.sql`);
    const isApplied = applied === 'unknown' || (applied?.has(pending.migration) ?? false);
    if (fs.existsSync(file) && !isApplied && !isCommitted(file)) {
      prev = pending.base;
      version = Number(pending.migration.slice(0, 4));
      replacing = file;
    } else forgetPending(dir, [pending.migration]);
  }
  if (prev && sameSnapshot(prev, next)) {
    if (replacing) {
      // The fix undid the whole change: the unapplied migration goes, the snapshot is the one before it.
      fs.rmSync(replacing);
      writeSnapshot(snapshotFile, prev, pending!.baseMigration);
      forgetPending(dir, [pending!.migration]);
    }
    return { file: null, snapshot: snapshotFile, status: 'unchanged', replaced: replacing };
  }
  const options = ddlOptions(resource, registry);
  if (prev && !baseline) {
    const problems = unsafeChanges(prev, next, options).filter((p) => !(allowDrop && p.kind === 'drop'));
    if (problems.length) throw new MigrationRefused(resource.name, problems);
  }
  let file: string | null = null;
  if (replacing) fs.rmSync(replacing);
  if (!baseline) {
    const number = String(version ?? Math.max(nextVersion(dir), firstVersion)).padStart(4, '0');
    const name = prev ? `${resource.name}_change` : resource.name;
    fs.mkdirSync(dir, { recursive: true });
    file = path.join(dir, `${number}_${name}.sql`);
    fs.writeFileSync(file, prev ? alterTableSql(prev, next, options) : createTableSql(next, options));
    const migration = path.basename(file, '.sql');
    const baseMigration = replacing ? pending!.baseMigration : storedMigrationOf(snapshotFile);
    recordPending(dir, { resource: resource.name, migration, base: prev, baseMigration });
  }
  writeSnapshot(snapshotFile, next, file ? path.basename(file, '.sql') : 'baseline');
  const status = baseline ? 'baseline' : prev ? 'altered' : 'created';
  return { file, snapshot: snapshotFile, status, replaced: replacing };
}

/** Renames and backfills declared on the fields, and where the dictionaries live. */
function ddlOptions(resource: Resource, registry: readonly Resource[]): DdlOptions {
  const renames: Record<string, string> = {};
  const backfills: Record<string, string> = {};
  for (const f of fieldsOf(resource)) {
    const column = (f.meta.writeOnly && f.meta.column) || f.name;
    if (f.meta.renamedFrom) renames[column] = f.meta.renamedFrom;
    if (f.meta.backfill) backfills[column] = f.meta.backfill;
  }
  const dictionaryTable = registry.find((r) => r.name === 'dictionaries')?.table ?? 'dictionary_types';
  return { renames, backfills, dictionaryTable };
}

function writeSnapshot(file: string, snapshot: TableSnapshot, migration: string | null): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const stored = { migration: migration ?? 'baseline', ...snapshot };
  fs.writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`);
}

function storedMigrationOf(snapshotFile: string): string | null {
  if (!fs.existsSync(snapshotFile)) return null;
  return (JSON.parse(fs.readFileSync(snapshotFile, 'utf8')) as { migration?: string }).migration ?? null;
}

/** True when the file is in git's HEAD: a committed migration is shared, so it is never rewritten. */
function isCommitted(file: string): boolean {
  try {
    const cwd = path.dirname(file);
    execFileSync('git', ['cat-file', '-e', `HEAD:./${path.basename(file)}`], { cwd, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function nextVersion(dir: string): number {
  const versions = fs.existsSync(dir)
    ? fs.readdirSync(dir).flatMap((f) => (/^(\d{4})_.*\.sql$/.exec(f) ? [Number(f.slice(0, 4))] : []))
    : [];
  return Math.max(0, ...versions) + 1;
}
