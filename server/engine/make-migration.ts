import fs from 'node:fs';
import path from 'node:path';
import type { Resource } from '../../resources/define.ts';
import { alterTableSql, createTableSql } from './ddl.ts';
import { readSnapshot, sameSnapshot, snapshotOf, snapshotPath } from './snapshot.ts';

export interface MakeMigrationResult {
  /** The migration written, or null (no change, or a baseline). */
  file: string | null;
  snapshot: string;
  status: 'created' | 'altered' | 'unchanged' | 'baseline';
}

/**
 * Writes the next migration for one resource into `dir` (`NNNN_<resource>.sql`, or
 * `NNNN_<resource>_change.sql` for an ALTER) and updates its snapshot. `baseline` records the current
 * schema for a table that already exists (e.g. from 0001) without writing DDL. `firstVersion` keeps the
 * numbers reserved by other migrations free.
 */
export function makeMigration({
  resource,
  registry,
  dir,
  baseline = false,
  firstVersion = 1,
}: {
  resource: Resource;
  registry: readonly Resource[];
  dir: string;
  baseline?: boolean;
  firstVersion?: number;
}): MakeMigrationResult {
  const next = snapshotOf(resource, registry);
  const prev = readSnapshot(dir, resource.name);
  const snapshotFile = snapshotPath(dir, resource.name);
  if (prev && sameSnapshot(prev, next)) return { file: null, snapshot: snapshotFile, status: 'unchanged' };
  let file: string | null = null;
  if (!baseline) {
    const version = String(Math.max(nextVersion(dir), firstVersion)).padStart(4, '0');
    const name = prev ? `${resource.name}_change` : resource.name;
    fs.mkdirSync(dir, { recursive: true });
    file = path.join(dir, `${version}_${name}.sql`);
    fs.writeFileSync(file, prev ? alterTableSql(prev, next) : createTableSql(next));
  }
  fs.mkdirSync(path.dirname(snapshotFile), { recursive: true });
  const stored = { migration: file ? path.basename(file, '.sql') : 'baseline', ...next };
  fs.writeFileSync(snapshotFile, `${JSON.stringify(stored, null, 2)}\n`);
  return { file, snapshot: snapshotFile, status: baseline ? 'baseline' : prev ? 'altered' : 'created' };
}

function nextVersion(dir: string): number {
  const versions = fs.existsSync(dir)
    ? fs.readdirSync(dir).flatMap((f) => (/^(\d{4})_.*\.sql$/.exec(f) ? [Number(f.slice(0, 4))] : []))
    : [];
  return Math.max(0, ...versions) + 1;
}
