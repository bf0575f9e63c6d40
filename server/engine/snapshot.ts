import fs from 'node:fs';
import path from 'node:path';
import type { Condition, Resource } from '../../resources/define.ts';
import { fieldsOf, joinTableOf, type FieldInfo, type FieldKind } from './fields.ts';

/**
 * The table a resource needs, as plain data. `make:migration` stores it next to the migrations
 * (`<dir>/snapshots/<resource>.json`) so the next run can diff the schema against it and write an ALTER
 * migration (like Django's makemigrations), and start-up compares it with the declared schema.
 */
export interface TableSnapshot {
  resource: string;
  table: string;
  columns: ColumnSnapshot[];
  joinTables: JoinTableSnapshot[];
}

export interface ColumnSnapshot {
  name: string;
  type: string;
  notNull: boolean;
  /** SQL default expression, or null. */
  default: string | null;
  /** CHECK expression (enums), or null. */
  check: string | null;
  unique: boolean;
  /** A btree index (`<table>_<column>_idx`) for sorting, `=`/`in`/range searches and joins on this column. */
  index: boolean;
  references: { table: string; onDelete: 'CASCADE' | 'SET NULL' | 'RESTRICT' } | null;
  /**
   * A GIN trigram index (`<table>_<column>_trgm`, pg_trgm's `gin_trgm_ops`) serving `like` searches
   * (`ILIKE '%term%'`, which a btree cannot). Snapshots written before it existed lack it: read as false.
   */
  trigram: boolean;
}

export interface JoinTableSnapshot {
  table: string;
  ownerColumn: string;
  targetColumn: string;
  targetTable: string;
}

/** zod-derived kind -> PostgreSQL column type. */
export const COLUMN_TYPES: Record<Exclude<FieldKind, 'references'>, string> = {
  string: 'text',
  text: 'text',
  email: 'text',
  url: 'text',
  enum: 'text',
  int: 'integer',
  number: 'double precision',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
  json: 'jsonb',
  reference: 'bigint',
};

/** Builds the snapshot of a resource's table; `registry` resolves relation targets and has-many parents. */
export function snapshotOf(resource: Resource, registry: readonly Resource[]): TableSnapshot {
  const tableOf = (name: string) => registry.find((r) => r.name === name)?.table ?? name;
  const columns: ColumnSnapshot[] = [{ ...EMPTY_COLUMN, name: 'id', type: 'bigserial', notNull: true }];
  for (const f of fieldsOf(resource).filter((x) => x.isColumn))
    columns.push(columnOf(resource, f, registry, tableOf));
  if (resource.timestamps) {
    const stamp = { ...EMPTY_COLUMN, type: 'timestamptz', notNull: true, default: 'now()' };
    columns.push({ ...stamp, name: 'created_at', index: true }, { ...stamp, name: 'updated_at' });
  }
  const joinTables = fieldsOf(resource)
    .filter((f) => f.kind === 'references')
    .map((f) => {
      const j = joinTableOf(resource, f);
      return { ...j, targetTable: tableOf(j.targetTable) };
    });
  return { resource: resource.name, table: resource.table, columns, joinTables };
}

const EMPTY_COLUMN: Omit<ColumnSnapshot, 'name' | 'type'> = {
  notNull: false,
  default: null,
  check: null,
  unique: false,
  index: false,
  references: null,
  trigram: false,
};

/**
 * Conditions a btree on the column serves. `like` is served by the trigram index instead, and `<>` (written
 * as `IS DISTINCT FROM`) by no index; a column searched only with those gets no btree unless it is sortable
 * or a foreign key.
 */
const BTREE_CONDITIONS = new Set<Condition>(['=', 'in', 'between', '>=', '<=']);

function columnOf(
  resource: Resource,
  f: FieldInfo,
  registry: readonly Resource[],
  tableOf: (name: string) => string,
): ColumnSnapshot {
  const kind = f.kind as Exclude<FieldKind, 'references'>;
  const target = f.meta.relation?.resource;
  const isChildKey = registry.some((parent) =>
    Object.values(parent.options.hasMany ?? {}).some(
      (h) => h.resource === resource.name && h.foreignKey === f.name && parent.name === target,
    ),
  );
  const onDelete = isChildKey ? 'CASCADE' : f.isNullable ? 'SET NULL' : 'RESTRICT';
  const values = f.enumValues.map(sqlLiteral).join(', ');
  // An integer's column type follows its declared bounds (resources/fields.ts intRange).
  const type = f.intRange?.column ?? COLUMN_TYPES[kind];
  return {
    name: (f.meta.writeOnly && f.meta.column) || f.name,
    type,
    notNull: !f.isNullable,
    default: f.hasDefault && f.defaultValue !== undefined ? sqlDefault(f.defaultValue, kind) : null,
    check: kind === 'enum' && values ? `${quote(f.name)} IN (${values})` : null,
    unique: f.meta.unique === true,
    index:
      !f.meta.unique &&
      (f.meta.sort === true || f.conditions.some((c) => BTREE_CONDITIONS.has(c)) || kind === 'reference'),
    references: kind === 'reference' && target ? { table: tableOf(target), onDelete } : null,
    // The list query searches `"col"::text ILIKE $n`: on a text column that is the column itself.
    trigram: type === 'text' && f.conditions.includes('like') && !f.meta.writeOnly,
  };
}

function sqlDefault(value: unknown, kind: FieldKind): string | null {
  if (value === null) return 'NULL';
  if (kind === 'json') return `${sqlLiteral(JSON.stringify(value))}::jsonb`;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return sqlLiteral(value);
  return null;
}

/** A SQL string literal (standard_conforming_strings: only quotes need doubling). */
export function sqlLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function snapshotPath(dir: string, resource: string): string {
  return path.join(dir, 'snapshots', `${resource}.json`);
}

export function readSnapshot(dir: string, resource: string): TableSnapshot | null {
  const file = snapshotPath(dir, resource);
  if (!fs.existsSync(file)) return null;
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSnapshot;
  const { migration: _migration, ...snapshot } = stored;
  return { ...snapshot, columns: snapshot.columns.map((c) => ({ ...c, trigram: c.trigram ?? false })) };
}

/** A snapshot file as written by any version of make:migration (properties added later may be missing). */
type StoredSnapshot = Omit<TableSnapshot, 'columns'> & {
  migration?: string;
  columns: (Omit<ColumnSnapshot, 'trigram'> & { trigram?: boolean })[];
};

/** Equal content, whatever the order of the properties (files keep the order they were written in). */
export function sameSnapshot(a: TableSnapshot, b: TableSnapshot): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

/**
 * Start-up check: every registered resource must have a snapshot equal to its schema. Returns one line per
 * problem, naming the resource and the command that fixes it.
 */
export function migrationProblems(resources: readonly Resource[], dir: string): string[] {
  const problems: string[] = [];
  for (const r of resources) {
    const stored = readSnapshot(dir, r.name);
    const command = `npm run make:migration ${r.name}`;
    if (!stored) problems.push(`Resource "${r.name}" has no migration: run \`${command}\`.`);
    else if (!sameSnapshot(stored, snapshotOf(r, resources)))
      problems.push(`Resource "${r.name}" changed since its last migration: run \`${command}\`.`);
  }
  return problems;
}
