import fs from 'node:fs';
import path from 'node:path';
import type { TableSnapshot } from './snapshot.ts';

/**
 * Migrations `make:migration` wrote that no database has applied yet, kept in
 * `<migrations dir>/snapshots/.pending.json` (git-ignored: it describes this working copy). A second run
 * for the same resource rewrites its pending migration from the snapshot it was diffed against (`base`)
 * instead of stacking a new one; applying it (server start, `db:migrate`: forgetAppliedTo) forgets it.
 */
export interface PendingMigration {
  resource: string;
  /** File name without `.sql`, e.g. `0061_widgets_change`. */
  migration: string;
  /** The snapshot the migration was generated from (null for a CREATE TABLE). */
  base: TableSnapshot | null;
  /** The migration that snapshot recorded (restored when a re-run finds no change left). */
  baseMigration: string | null;
}

export function pendingFile(dir: string): string {
  return path.join(dir, 'snapshots', '.pending.json');
}

function readAll(dir: string): Record<string, PendingMigration> {
  try {
    return JSON.parse(fs.readFileSync(pendingFile(dir), 'utf8')) as Record<string, PendingMigration>;
  } catch {
    return {};
  }
}

function writeAll(dir: string, all: Record<string, PendingMigration>): void {
  const file = pendingFile(dir);
  if (Object.keys(all).length === 0) {
    fs.rmSync(file, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

export function pendingMigrationOf(dir: string, resource: string): PendingMigration | null {
  return readAll(dir)[resource] ?? null;
}

export function recordPending(dir: string, pending: PendingMigration): void {
  writeAll(dir, { ...readAll(dir), [pending.resource]: pending });
}

/** Forgets the pending entries of these migrations (applied, or found applied). Never throws. */
export function forgetPending(dir: string, migrations: readonly string[]): void {
  try {
    if (!fs.existsSync(pendingFile(dir))) return;
    const all = readAll(dir);
    const kept = Object.fromEntries(Object.entries(all).filter(([, p]) => !migrations.includes(p.migration)));
    if (Object.keys(kept).length !== Object.keys(all).length) writeAll(dir, kept);
  } catch {
    // A read-only deployment has no marker to keep.
  }
}

/**
 * After a server start or `db:migrate` applied `applied` to the configured database: forgets their pending
 * entries, whatever that database is. A PGlite directory under the system's temporary directory (a test, an
 * e2e server, or a developer's own `DATA_DIR=/tmp/...`) counts too: a migration some database has applied is
 * never rewritten, so when in doubt make:migration writes a new one instead (issue 35).
 */
export function forgetAppliedTo(
  _config: { databaseUrl: string | null; dataDir: string },
  applied: readonly string[],
  dir: string,
): void {
  if (applied.length === 0) return;
  forgetPending(dir, applied);
}
