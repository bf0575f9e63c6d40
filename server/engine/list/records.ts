import type { Resource } from '../../../resources/define.ts';
import type { Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { hideFields } from '../field-access.ts';
import { fieldsOf, ident, includeNameOf, joinTableOf, type FieldInfo } from '../schema/fields.ts';
import { hooksOf, type ResourceHooksTable } from '../hooks.ts';
import { toWire, type WireRecord } from './wire.ts';
import { liveSql, rowScope, scopeSql } from '../scope.ts';
import { applyComputedValues, computedSql } from './computed.ts';

/** Columns every engine table has (the snapshot adds them): who created and who last wrote the record. */
export const RECORD_AUTHORS = ['created_by', 'updated_by'] as const;

/** SELECT list of a resource's readable columns (write-only columns are never read). */
export function selectColumns(resource: Resource): string {
  // The same text for a resource on every request (a list sends it once or twice per call): built once.
  let cols = selectCache.get(resource);
  if (cols === undefined) selectCache.set(resource, (cols = buildSelectColumns(resource)));
  return cols;
}
const selectCache = new WeakMap<Resource, string>();

function buildSelectColumns(resource: Resource): string {
  const cols = ['"id"'];
  for (const f of fieldsOf(resource)) {
    const expression = computedSql(resource, f);
    if (expression) cols.push(`${expression} AS ${ident(f.name)}`);
    if (!f.isColumn || f.meta.writeOnly) continue;
    // Dates travel as YYYY-MM-DD text: a JS Date would shift them by the server's time zone.
    cols.push(f.kind === 'date' ? `${ident(f.name)}::text AS ${ident(f.name)}` : ident(f.name));
  }
  if (resource.timestamps) cols.push('"created_at"', '"updated_at"');
  cols.push(...RECORD_AUTHORS.map(ident));
  // Read with the row, never by another query: versions cost lists nothing (issue 36).
  cols.push('"version"');
  return cols.join(', ');
}

/**
 * What loading records needs besides the rows: the resource, the others (includes) and their hooks
 * (afterRead), and who is reading: the records an include embeds are those in the viewer's data scope
 * (scope.ts; undefined: the system, everything).
 */
export interface RecordScope {
  resource: Resource;
  registry: readonly Resource[];
  hooks: ResourceHooksTable;
  /**
   * Who the records are for: only the rows of its data scope are embedded (scope.ts) and the fields it may
   * not see are removed from them and from what they embed (field-access.ts). `undefined` for the engine's
   * own reads (a write's `before`): required, so no path forgets to say.
   */
  viewer: Principal | undefined;
}

/**
 * Loads the records with these ids (in the given order), with many-to-many ids and the includes, without
 * the fields `scope.viewer` may not see.
 */
export async function loadRecords(
  db: Queryable,
  scope: RecordScope,
  rows: Record<string, unknown>[],
  includes: readonly string[] = [],
): Promise<WireRecord[]> {
  const records = await loadWhole(db, scope, rows, includes);
  hideFields(scope.viewer, scope.resource, scope.registry, records);
  return records;
}

async function loadWhole(
  db: Queryable,
  scope: RecordScope,
  rows: Record<string, unknown>[],
  includes: readonly string[] = [],
): Promise<WireRecord[]> {
  const { resource } = scope;
  const records = rows.map(toWire);
  if (records.length === 0) return records;
  applyComputedValues(resource, records);
  const ids = records.map((r) => r.id);
  for (const f of fieldsOf(resource).filter((x) => x.kind === 'references')) {
    const linked = await linkedIds(db, resource, f, ids, scope.registry);
    for (const r of records) r[f.name] = linked.get(r.id) ?? [];
  }
  for (const name of includes)
    await INCLUDERS.find((i) => i.matches(resource, name))?.load({ db, scope, records, name });
  await hooksOf(scope.hooks, resource).afterRead?.({ db, records });
  return records;
}

interface IncludeArgs {
  db: Queryable;
  scope: RecordScope;
  records: WireRecord[];
  name: string;
}

/** How each relation kind embeds its records: belongsTo -> record, manyToMany -> list, hasMany -> children. */
const INCLUDERS: {
  matches(resource: Resource, name: string): boolean;
  load(args: IncludeArgs): Promise<void>;
}[] = [
  {
    matches: (resource, name) => relationField(resource, name)?.kind === 'reference',
    async load({ db, scope, records, name }) {
      const f = relationField(scope.resource, name)!;
      const target = targetOf(scope.registry, f);
      const ids = [
        ...new Set(records.map((r) => r[f.name]).filter((v): v is string => typeof v === 'string')),
      ];
      const byId = await fetchByIds(db, { ...scope, resource: target }, ids);
      for (const r of records)
        r[name] = typeof r[f.name] === 'string' ? (byId.get(r[f.name] as string) ?? null) : null;
    },
  },
  {
    matches: (resource, name) => relationField(resource, name)?.kind === 'references',
    async load({ db, scope, records, name }) {
      const f = relationField(scope.resource, name)!;
      const target = targetOf(scope.registry, f);
      const ids = [...new Set(records.flatMap((r) => r[f.name] as string[]))];
      const byId = await fetchByIds(db, { ...scope, resource: target }, ids);
      for (const r of records) r[name] = (r[f.name] as string[]).flatMap((id) => byId.get(id) ?? []);
    },
  },
  {
    matches: (resource, name) => Boolean(resource.options.hasMany?.[name]),
    async load({ db, scope, records, name }) {
      const { resource } = scope;
      const spec = resource.options.hasMany![name]!;
      const child = scope.registry.find((r) => r.name === spec.resource);
      if (!child)
        throw new Error(`hasMany ${resource.name}.${name}: resource ${spec.resource} is not registered`);
      const ids = records.map((r) => r.id);
      const live = liveSql(child);
      const { rows } = await db.query(
        `SELECT ${selectColumns(child)} FROM ${ident(child.table)} WHERE ${ident(spec.foreignKey)} IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})${live ? ` AND ${live}` : ''} ORDER BY "id"`,
        ids,
      );
      const children = await loadWhole(db, { ...scope, resource: child }, rows);
      for (const r of records) r[name] = children.filter((c) => c[spec.foreignKey] === r.id);
    },
  },
];

function relationField(resource: Resource, name: string): FieldInfo | undefined {
  return fieldsOf(resource).find(
    (f) => (f.kind === 'reference' || f.kind === 'references') && includeNameOf(f) === name,
  );
}

function targetOf(registry: readonly Resource[], f: FieldInfo): Resource {
  const name = f.meta.relation!.resource;
  const target = registry.find((r) => r.name === name);
  if (!target) throw new Error(`include ${f.name}: resource ${name} is not registered`);
  return target;
}

async function fetchByIds(
  db: Queryable,
  scope: RecordScope,
  ids: string[],
): Promise<Map<string, WireRecord>> {
  if (ids.length === 0) return new Map();
  const target = scope.resource;
  const params: unknown[] = [...ids];
  const visible = scopeSql(target, await rowScope(db, target, scope.viewer), (v) => `$${params.push(v)}`);
  const { rows } = await db.query(
    `SELECT ${selectColumns(target)} FROM ${ident(target.table)} WHERE "id" IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})${visible ? ` AND ${visible}` : ''}`,
    params,
  );
  const records = await loadWhole(db, scope, rows);
  return new Map(records.map((r) => [r.id, r]));
}

async function linkedIds(
  db: Queryable,
  resource: Resource,
  f: FieldInfo,
  ids: string[],
  registry: readonly Resource[],
): Promise<Map<string, string[]>> {
  const j = joinTableOf(resource, f);
  // A link to a record in the trash reads as gone, as the link to a deleted one is (scope.ts liveSql).
  const target = registry.find((r) => r.name === f.meta.relation?.resource);
  const live = target && liveSql(target, 't.');
  const join = live
    ? ` JOIN ${ident(target.table)} t ON t."id" = j.${ident(j.targetColumn)} AND ${live}`
    : '';
  const { rows } = await db.query<{ owner: string; target: string }>(
    `SELECT j.${ident(j.ownerColumn)} AS owner, j.${ident(j.targetColumn)} AS target FROM ${ident(j.table)} j${join}
      WHERE j.${ident(j.ownerColumn)} IN (${ids.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY 1, 2`,
    ids,
  );
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const list = out.get(String(row.owner)) ?? [];
    list.push(String(row.target));
    out.set(String(row.owner), list);
  }
  return out;
}
