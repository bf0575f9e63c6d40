import fs from 'node:fs';
import path from 'node:path';
import { isSoftDelete, type Condition, type Resource } from '../../../resources/define.ts';
import { seedOf, type DictionarySeed } from '../../../resources/default-dictionaries.ts';
import { computedSql } from '../list/computed.ts';
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
  /** Declared composite indexes (`indexes` option), named `<table>_<col>_<col>_idx`. Older files: []. */
  indexes: IndexSnapshot[];
  /** Dictionaries the resource ships, as seeded (resources/default-dictionaries.ts). Older files: []. */
  dictionaries: DictionarySeed[];
}

export interface IndexSnapshot {
  name: string;
  columns: string[];
  /** A partial index's predicate (`"deleted_at" IS NULL`: live rows only). Older files: none. */
  where?: string;
  /**
   * An expression index (issue 35): the SQL of the first key instead of the column `columns[0]` names. A
   * sortable computed column's sort index, `(<expression>, "id")`, with the very expression the list's ORDER
   * BY carries (server/engine/list/computed.ts computedSql), so the sort reads the index. A changed expression
   * drops and recreates the index. Older files: none.
   */
  expression?: string;
  /** The collation of the first key (`und-x-icu`, `zh-x-icu`: a text sort's, as for a text column). */
  collation?: string;
}

/** The predicate of a soft-delete table's partial indexes: the live rows (resources/define.ts softDelete). */
export const LIVE_ROWS = '"deleted_at" IS NULL';

export interface ColumnSnapshot {
  name: string;
  type: string;
  notNull: boolean;
  /** SQL default expression, or null. */
  default: string | null;
  /**
   * CHECK expression, or null: an enum's values, and the declared zod bounds (an integer's or a number's
   * min/max, a string's maximum length), joined with AND.
   */
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
  /**
   * A btree on `(column, id)` (`<table>_<column>_sort`), the index `ORDER BY "column" <dir>, "id" <dir>`
   * (server/engine/list/query.ts) and a keyset page after a `(column, id)` pair read in order; it serves the
   * `=`/`in`/range searches of the column too, so such a column has no separate `_idx`. Older files: false.
   */
  sortIndex: boolean;
}

export interface JoinTableSnapshot {
  table: string;
  ownerColumn: string;
  targetColumn: string;
  targetTable: string;
}

/**
 * zod-derived kind -> PostgreSQL column type. A new kind adds its line here (TypeScript insists); an integer's
 * type follows its bounds instead (resources/fields.ts intRange: `integer`, or `bigint` past INT4).
 */
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
    // Both are sortable (resources/fields.ts systemFields): each gets its (column, id) index.
    const stamp = { ...EMPTY_COLUMN, type: 'timestamptz', notNull: true, default: 'now()', sortIndex: true };
    columns.push({ ...stamp, name: 'created_at' }, { ...stamp, name: 'updated_at' });
  }
  // Who created and last wrote each record (user ids, set by the engine's writes; null for rows older than
  // migration 0114 and the system's own writes). `created_by` is the owner a `self` data scope matches, so
  // it has its index (server/engine/scope.ts).
  const author = { ...EMPTY_COLUMN, type: 'bigint' };
  columns.push({ ...author, name: 'created_by', index: true }, { ...author, name: 'updated_by' });
  // The record's version (issue 36): 1 on create, +1 on every write, compared by a PATCH that names one.
  columns.push({ ...EMPTY_COLUMN, name: 'version', type: 'integer', notNull: true, default: '1' });
  // In the trash since (null: live). Lists read live rows only, through the partial indexes below.
  if (isSoftDelete(resource)) columns.push({ ...EMPTY_COLUMN, name: 'deleted_at', type: 'timestamptz' });
  const joinTables = fieldsOf(resource)
    .filter((f) => f.kind === 'references')
    .map((f) => {
      const j = joinTableOf(resource, f);
      return { ...j, targetTable: tableOf(j.targetTable) };
    });
  const indexes: IndexSnapshot[] = (resource.options.indexes ?? []).map((cols) => ({
    name: `${resource.table}_${cols.join('_')}_idx`.slice(0, 63),
    columns: [...cols],
  }));
  // The default list order (`id desc`) over live rows; the trash list reads this one's complement.
  if (isSoftDelete(resource))
    indexes.push({ name: `${resource.table}_live_idx`.slice(0, 63), columns: ['id'], where: LIVE_ROWS });
  indexes.push(...computedSortIndexes(resource));
  const declared = [
    ...(resource.options.dictionaries ?? []),
    ...fieldsOf(resource).flatMap((f) => (f.meta.dictionarySeed ? [f.meta.dictionarySeed] : [])),
  ];
  const dictionaries = [...new Map(declared.map((d) => [d.slug, seedOf(d)])).values()];
  return { resource: resource.name, table: resource.table, columns, joinTables, indexes, dictionaries };
}

/**
 * A sortable computed column's sort indexes (issue 35): `(<expression>, "id")` over the live rows, named as a
 * column's (`_sort`), and for a text value the collated ones a text sort reads (`_ci`, `_zh`; see ddl.ts
 * collatedSortIndexes). The expression is the list's own ORDER BY term, so PostgreSQL matches the two.
 */
function computedSortIndexes(resource: Resource): IndexSnapshot[] {
  const out: IndexSnapshot[] = [];
  const where = isSoftDelete(resource) ? { where: LIVE_ROWS } : {};
  for (const f of fieldsOf(resource)) {
    const expression = f.isSortable ? computedSql(resource, f) : null;
    if (!expression) continue;
    const name = (suffix: string) => `${resource.table}_${f.name}_${suffix}`.slice(0, 63);
    const index = { columns: [f.name, 'id'], ...where, expression };
    out.push({ name: name('sort'), ...index });
    if (TEXT_COLUMN_KINDS.has(f.kind))
      out.push(
        { name: name('ci'), ...index, collation: 'und-x-icu' },
        { name: name('zh'), ...index, collation: 'zh-x-icu' },
      );
  }
  return out;
}

const EMPTY_COLUMN: Omit<ColumnSnapshot, 'name' | 'type'> = {
  notNull: false,
  default: null,
  check: null,
  unique: false,
  index: false,
  references: null,
  trigram: false,
  sortIndex: false,
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
  // An integer's column type follows its declared bounds (resources/fields.ts intRange).
  const type = f.intRange?.column ?? COLUMN_TYPES[kind];
  // A reference whose target's fields sort the list (`sortBy`, server/engine/list/related.ts) is walked by
  // `(reference, id)` for each target row in the target's order: the same btree as a sortable column's.
  const sortIndex = f.isSortable || (kind === 'reference' && (f.meta.sortBy?.length ?? 0) > 0);
  return {
    name: (f.meta.writeOnly && f.meta.column) || f.name,
    type,
    notNull: !f.isNullable,
    default: f.hasDefault && f.defaultValue !== undefined ? sqlDefault(f.defaultValue, kind) : null,
    check: f.meta.writeOnly ? null : checkOf(f),
    unique: f.meta.unique === true,
    index:
      !f.meta.unique &&
      !sortIndex &&
      (f.meta.sort === true || f.conditions.some((c) => BTREE_CONDITIONS.has(c)) || kind === 'reference'),
    references: kind === 'reference' && target ? { table: tableOf(target), onDelete } : null,
    // The list query searches `"col"::text ILIKE $n`: on a text column that is the column itself.
    trigram: type === 'text' && f.conditions.includes('like') && !f.meta.writeOnly,
    sortIndex,
  };
}

/** Column types whose declared bounds the generator turns into a CHECK (see checkOf). */
const TEXT_COLUMN_KINDS = new Set<FieldKind>(['string', 'text', 'email', 'url']);

/**
 * The CHECK of a column: an enum's values; an integer's declared bounds when narrower than its column type
 * (the same range validation uses, resources/fields.ts intRange); a number's declared min/max; a string's
 * declared maximum length (`char_length` counts code points, never more than zod's UTF-16 units, so a valid
 * value always passes). Minimum lengths are left to validation (a trimmed value's code points may be fewer).
 */
function checkOf(f: FieldInfo): string | null {
  const col = quote(f.name);
  const parts: string[] = [];
  const values = f.enumValues.map(sqlLiteral).join(', ');
  if (f.kind === 'enum' && values) parts.push(`${col} IN (${values})`);
  const range = f.intRange;
  if (range) {
    // Only the bounds narrower than the column type's own range (the type enforces the rest).
    const [lo, hi] = range.column === 'integer' ? [INT4_MIN, INT4_MAX] : [INT8_MIN, INT8_MAX];
    if (range.min > lo && range.max < hi) parts.push(`${col} BETWEEN ${range.min} AND ${range.max}`);
    else if (range.min > lo) parts.push(`${col} >= ${range.min}`);
    else if (range.max < hi) parts.push(`${col} <= ${range.max}`);
  }
  const checks = zodChecks(f.schema);
  if (f.kind === 'number') {
    for (const c of checks) {
      if (typeof c.value !== 'number' || !Number.isFinite(c.value)) continue;
      const op = { greater_than: c.inclusive ? '>=' : '>', less_than: c.inclusive ? '<=' : '<' }[
        c.check ?? ''
      ];
      if (op) parts.push(`${col} ${op} ${c.value}`);
    }
  }
  if (TEXT_COLUMN_KINDS.has(f.kind)) {
    const max = Math.min(
      ...checks
        .filter((c) => c.check === 'max_length' && typeof c.maximum === 'number')
        .map((c) => c.maximum!),
    );
    if (Number.isFinite(max)) parts.push(`char_length(${col}) <= ${max}`);
  }
  return parts.length ? parts.join(' AND ') : null;
}

const INT4_MIN = -2147483648n;
const INT4_MAX = 2147483647n;
const INT8_MIN = -9223372036854775808n;
const INT8_MAX = 9223372036854775807n;

interface ZodCheckDef {
  check?: string;
  value?: unknown;
  inclusive?: boolean;
  maximum?: number;
}

/** The checks of the schema under its optional/nullable/default/pipe wrappers. */
function zodChecks(schema: FieldInfo['schema']): ZodCheckDef[] {
  let node = schema as unknown as { _zod: { def: Record<string, unknown> } };
  for (let depth = 0; depth < 20; depth++) {
    const def = node._zod.def;
    const inner = (def.type === 'pipe' ? def.in : def.innerType) as typeof node | undefined;
    if (
      !inner ||
      !['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'pipe'].includes(
        def.type as string,
      )
    )
      break;
    node = inner;
  }
  const checks = (node._zod.def.checks ?? []) as { _zod: { def: ZodCheckDef } }[];
  return checks.map((c) => c._zod.def);
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
  return {
    ...snapshot,
    columns: snapshot.columns.map((c) => ({
      ...c,
      trigram: c.trigram ?? false,
      sortIndex: c.sortIndex ?? false,
    })),
    indexes: snapshot.indexes ?? [],
    dictionaries: snapshot.dictionaries ?? [],
  };
}

/** A snapshot file as written by any version of make:migration (properties added later may be missing). */
type StoredSnapshot = Omit<TableSnapshot, 'columns' | 'indexes' | 'dictionaries'> & {
  migration?: string;
  columns: (Omit<ColumnSnapshot, 'trigram' | 'sortIndex'> & { trigram?: boolean; sortIndex?: boolean })[];
  indexes?: IndexSnapshot[];
  dictionaries?: DictionarySeed[];
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
