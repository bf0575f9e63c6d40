import type { Resource } from '../../../resources/define.ts';
import { isFlag } from '../../../resources/flag.ts';
import { getSettings } from '../../core/settings.ts';
import type { Queryable } from '../../db/index.ts';
import type { Principal } from '../../core/principal.ts';
import { restrictedFields } from '../field-access.ts';
import { rowScope, scopeSql } from '../scope.ts';
import { representationOf } from './references.ts';
import { escapeFormula } from './formula.ts';
import { computedSql } from '../list/computed.ts';
import { loadDictionary } from '../dictionaries.ts';
import { fieldByName, ident, joinTableOf, type FieldInfo, type FieldKind } from '../schema/fields.ts';
import { enumLabel, type Lang } from '../labels.ts';
import { sqlTimePattern } from '../../../schemas/timeFormat.ts';

/**
 * CSV export cells are formatted by the database, one text column per exported column, for people: a
 * belongs-to as the referenced record's representation, a many-to-many as representations joined by `, `,
 * labels for enums, dictionaries, booleans and 0/1 flags, dates and times in the language's format the screens
 * show too (schemas/timeFormat.ts: zh-CN `2025/07/04 09:05:07`, en `07/04/2025, 09:05:07`), times in the site's
 * time zone (`site.timezone`) to the second, formula escaping. References are
 * resolved by joins in the same SELECT, never per row. PostgreSQL streams that SELECT with COPY (no row ever
 * becomes a JS object); PGlite reads it through a cursor and `csvLine` writes the same bytes COPY would.
 * Labels are bound parameters, like every value, and the time zone a session setting (ExportQuery.settings). csv/parse-row.ts reads all of it back.
 */

/**
 * `escapeFormula` in SQL: first character one of = + - @ tab CR (by code point, cheaper than a pattern). All
 * six are below 65 ('A'): one comparison first settles a cell that starts with a letter (most text) or any
 * other character from 'A' on, and only the rest are compared with the six (issue 37: 500k names, escaping
 * ~60 -> ~15 ms over the bare column). NULL and '' are left as they are, as before.
 */
const escapeSql = (expr: string) =>
  `CASE WHEN ascii((${expr})::text) < 65 AND ascii((${expr})::text) IN (61, 43, 45, 64, 9, 13) THEN '''' || (${expr})::text ELSE (${expr})::text END`;

/**
 * Session settings the cell formats rely on (ISO dates, shortest exact floats; `TimeZone` is replaced by the
 * site's for each export, see ExportQuery), no JIT (one pass over a big table costs more to compile than it saves), and no parallel
 * workers: under a Gather Merge each worker builds the whole many-to-many aggregate again and every wide
 * row crosses a queue to the leader, so the same COPY cost 1.4-2x the CPU (measured on bench/list.ts's
 * gadgets), CPU the server writing the CSV needs on a small machine; one backend keeps up with it.
 */
export const EXPORT_SETTINGS: Readonly<Record<string, string>> = {
  DateStyle: 'ISO, YMD',
  TimeZone: 'UTC',
  extra_float_digits: '1',
  IntervalStyle: 'postgres',
  jit: 'off',
  max_parallel_workers_per_gather: '0',
};

/** One CSV line as PostgreSQL's COPY ... (FORMAT csv) writes it: NULL is empty, '' is `""`. */
export function csvLine(cells: readonly (string | null)[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (i > 0) line += ',';
    if (v === null || v === undefined) continue;
    line +=
      v === '' || /[",\n\r]/.test(v) || (cells.length === 1 && v === '\\.')
        ? `"${v.replace(/"/g, '""')}"`
        : v;
  }
  return `${line}\n`;
}

/** The export SELECT: `sql` uses $1..$n for `params` (the list filters first, then the labels). */
export interface ExportQuery {
  sql: string;
  params: unknown[];
  /** The session settings to run it with: EXPORT_SETTINGS, `TimeZone` the site's (times are written in it). */
  settings: Readonly<Record<string, string>>;
}

interface ExportPlanLike {
  columns: readonly string[];
  where: string;
  orderBy: string;
  params: readonly unknown[];
  /**
   * Who the file is for: a referenced record is written by its representation only when the viewer may see
   * that record (its data scope) and that field (field access); else by its id. Undefined: the system.
   */
  viewer?: Principal | undefined;
}

interface CellContext {
  labels: () => string | null;
  yes: () => string;
  no: () => string;
  /** The SQL of the bound `to_char` templates of the language's date and time formats. */
  dateFormat: () => string;
  timeFormat: () => string;
  /** A belongs-to's representation, or null when the target has none. */
  one: () => string | null;
  many: () => string;
  isFlag: boolean;
}

/** Cell SQL by kind; `labels` binds the value -> label map (if any), `yes`/`no` the boolean labels. */
const CELLS: Record<FieldKind, (col: string, c: CellContext) => string> = {
  string: (col, c) => withLabels(col, c.labels()),
  text: (col) => escapeSql(col),
  email: (col) => escapeSql(col),
  url: (col) => escapeSql(col),
  enum: (col, c) => withLabels(col, c.labels()),
  int: (col, c) =>
    c.isFlag
      ? `CASE ${col} WHEN 1 THEN ${c.yes()} WHEN 0 THEN ${c.no()} ELSE ${col}::text END`
      : `${col}::text`,
  number: (col) => `${col}::text`,
  boolean: (col, c) => `CASE WHEN ${col} THEN ${c.yes()} WHEN NOT ${col} THEN ${c.no()} END`,
  // The language's format (schemas/timeFormat.ts), the one the screens show: to the second for times.
  date: (col, c) => `to_char(${col}, ${c.dateFormat()})`,
  // In the site's zone as the session's TimeZone (ExportQuery.settings): the same text as
  // `to_char(col AT TIME ZONE zone, ...)`, without looking the zone up again for every cell (issue 37:
  // ~25% of a time cell's cost; tests/integration/engine-csv-time-oracle.test.ts compares the two).
  datetime: (col, c) => `to_char(${col}, ${c.timeFormat()})`,
  json: (col) => escapeSql(`${col}::text`),
  reference: (col, c) => c.one() ?? `${col}::text`,
  references: (_col, c) => c.many(),
};

/** A `money()` field: minor units written in major units with two decimals (`2499` -> `24.99`), exact. */
const MONEY_CELL = (col: string) => `(${col}::numeric / 100)::numeric(20, 2)::text`;

function withLabels(col: string, map: string | null): string {
  return map ? `coalesce(${map} ->> ${col}, ${escapeSql(col)})` : escapeSql(col);
}

/**
 * Builds the export SELECT for `plan` with labels in `lang`. Label maps, yes/no and the time formats are bound
 * parameters read through scalar subqueries, each computed once per query; a belongs-to is a
 * LEFT JOIN on the target's id, and many-to-many representations come from one grouped join restricted to
 * the exported rows. A representation that is empty (or a dangling id) is written as the id, which an import
 * reads back too.
 */
export async function exportQuery(
  db: Queryable,
  lang: Lang,
  resource: Resource,
  plan: ExportPlanLike,
  registry: readonly Resource[] = [],
): Promise<ExportQuery> {
  const table = ident(resource.table);
  const params = [...plan.params];
  // An uncorrelated scalar subquery is computed once (an InitPlan) and read per row as a value: cheaper
  // than a joined one-row table, and COPY's bound values (current_setting(), see postgres.ts) are read once.
  const bind = (value: unknown, type: string) => {
    params.push(value);
    return `(SELECT $${params.length}::${type})`;
  };
  const dictionaries = new Map<string, Map<string, string>>();
  for (const name of plan.columns) {
    const slug = fieldByName(resource, name)?.meta.dictionary;
    const dict = slug ? await loadDictionary(db, slug, lang.locale) : null;
    if (dict) dictionaries.set(name, dict);
  }
  let yes: string | null = null;
  let no: string | null = null;
  let dateFormat: string | null = null;
  let timeFormat: string | null = null;
  const timezone = plan.columns.some((c) => (fieldByName(resource, c)?.kind ?? 'datetime') === 'datetime')
    ? (await getSettings(db, 'site')).timezone
    : 'UTC';
  // Each reference column's target as this viewer may name it (null: written as ids), with the target's
  // data scope as a predicate on its rows (an out-of-scope record is written as its id too).
  const targets = new Map<string, { table: string; column: string; scope: string | null } | null>();
  for (const name of plan.columns) {
    const f = fieldByName(resource, name);
    if (f?.kind !== 'reference' && f?.kind !== 'references') continue;
    const target = representationOf(registry, f.meta.relation?.resource);
    if (!target || restrictedFields(plan.viewer, target.resource).get(target.column) === 'hidden') {
      targets.set(name, null);
      continue;
    }
    const scope = await rowScope(db, target.resource, plan.viewer);
    const predicate = scopeSql(target.resource, scope, (value) => `$${params.push(value)}`, 't.');
    targets.set(name, { table: target.table, column: target.column, scope: predicate });
  }
  const joins: string[] = [];
  const cells: string[] = [];
  for (const name of plan.columns) {
    const f: Pick<FieldInfo, 'kind' | 'meta' | 'name' | 'enumValues'> = fieldByName(resource, name) ?? {
      name,
      kind: name === 'id' ? 'reference' : 'datetime',
      meta: {},
      enumValues: [],
    };
    const col = (f.meta.computed && computedSql(resource, f)) || `${table}.${ident(name)}`;
    const cell = CELLS[f.kind](col, {
      labels: () => {
        const map = labelMap(lang, resource, f, dictionaries.get(name));
        return map ? bind(map, 'jsonb') : null;
      },
      yes: () => (yes ??= bind(lang.t('engine.csv.yes'), 'text')),
      no: () => (no ??= bind(lang.t('engine.csv.no'), 'text')),
      dateFormat: () => (dateFormat ??= bind(sqlTimePattern(lang.locale, 'date'), 'text')),
      timeFormat: () => (timeFormat ??= bind(sqlTimePattern(lang.locale, 'datetime'), 'text')),
      isFlag: isFlag(f as FieldInfo),
      one: () => {
        const target = targets.get(name);
        if (!target) return null;
        const alias = `"__r${joins.length}"`;
        const visible = target.scope ? ` WHERE ${target.scope}` : '';
        // Renamed columns: the list's WHERE and ORDER BY name the exported table's columns unqualified.
        joins.push(
          `LEFT JOIN (SELECT t."id" AS "__k", t.${ident(target.column)} AS "__v" FROM ${ident(target.table)} t${visible}) ${alias} ON ${alias}."__k" = ${col}`,
        );
        return `CASE WHEN ${col} IS NOT NULL THEN ${repText(`${alias}."__v"`, `${col}::text`)} END`;
      },
      many: () => {
        const j = joinTableOf(resource, fieldByName(resource, name)!);
        const target = targets.get(name);
        const alias = `"__r${joins.length}"`;
        const rows = plan.where
          ? `WHERE j.${ident(j.ownerColumn)} IN (SELECT "id" FROM ${table} ${plan.where})`
          : '';
        const id = `j.${ident(j.targetColumn)}`;
        const value = target ? repText(`t.${ident(target.column)}`, `${id}::text`) : `${id}::text`;
        const from = target
          ? `${ident(j.table)} j LEFT JOIN ${ident(target.table)} t ON t."id" = ${id}${target.scope ? ` AND ${target.scope}` : ''}`
          : `${ident(j.table)} j`;
        // The links come sorted (the join table's primary key order) and are aggregated in that order: an
        // ORDER BY inside string_agg would sort every owner's few links apart (a sort per exported row).
        joins.push(
          `LEFT JOIN (SELECT "__k", string_agg("__v", ', ') AS "__v" FROM (SELECT j.${ident(j.ownerColumn)} AS "__k", ${value} AS "__v"
             FROM ${from} ${rows} ORDER BY j.${ident(j.ownerColumn)}, ${id}) "__s" GROUP BY 1) ${alias} ON ${alias}."__k" = ${table}."id"`,
        );
        return `${alias}."__v"`;
      },
    });
    cells.push(`${f.meta.money ? MONEY_CELL(col) : cell} AS "__c${cells.length}"`);
  }
  const sql = `SELECT ${cells.join(', ')} FROM ${table} ${joins.join(' ')} ${plan.where} ${plan.orderBy}`;
  return { sql, params, settings: { ...EXPORT_SETTINGS, TimeZone: timezone } };
}

/** A representation's text, or the id when it is empty (or the record is gone); formula-escaped. */
function repText(rep: string, id: string): string {
  return `coalesce(nullif(${escapeSql(rep)}, ''), ${id})`;
}

/** value -> label (formula-escaped) of an enum or a dictionary-backed field, or null when it has none. */
function labelMap(
  lang: Lang,
  resource: Resource,
  f: Pick<FieldInfo, 'kind' | 'name' | 'enumValues'>,
  dictionary: Map<string, string> | undefined,
): string | null {
  const entries: [string, string][] = dictionary
    ? [...dictionary]
    : f.kind === 'enum'
      ? f.enumValues.map((v) => [v, enumLabel(lang, resource, f.name, v)])
      : [];
  if (entries.length === 0) return null;
  return JSON.stringify(Object.fromEntries(entries.map(([value, label]) => [value, escapeFormula(label)])));
}
