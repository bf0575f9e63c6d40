import type { Condition, Resource } from '../../../resources/define.ts';
import type { FieldKind } from '../../../resources/fields.ts';
import type { Principal } from '../../core/principal.ts';
import { keptUnlessFailed } from '../../core/memo.ts';
import type { Queryable } from '../../db/index.ts';
import { hiddenFields } from '../field-access.ts';
import { liveSql, rowScope, scopeSql } from '../scope.ts';
import { fieldsOf, ident, includeNameOf } from '../schema/fields.ts';
import { mayRead } from './include-access.ts';
import { databaseOf } from '../../db/identity.ts';
import { keysColumn, keysetPredicate } from './keyset.ts';
import type { SortKey } from './query.ts';

/**
 * What a list query knows beyond the resource's own declaration (contract amendment "Lists that work like
 * a spreadsheet"): the collation its text sorts use (collation.ts) and the related fields the caller may
 * sort and search by (`department.name`: a reference's `sortBy`/`searchBy` fields of its target). Built
 * per request, since both depend on the caller: its language picks the collation; its read permission on
 * the target, the target's field access and the caller's data scope on the target decide the related
 * fields. A related field the caller may not use is unknown to the query (422, as an unknown field).
 *
 * Scope: a related value is the target row's value only when the caller may see that row (live, in its
 * scope on the target); otherwise it is NULL to the query: such rows sort last (first descending) and match
 * no related filter. So neither the order nor a filter tells anything about rows the caller cannot read.
 */
export interface ListContext {
  /** The collation of text sorts (`und-x-icu`, `zh-x-icu`), or null: the column's own (no ICU). */
  collation: string | null;
  related: ReadonlyMap<string, RelatedField>;
}

/** One related field, `<relation>.<field>`, as the query language uses it. */
export interface RelatedField {
  path: string;
  /** The reference column of the listed resource. */
  via: string;
  targetTable: string;
  /** The target's column. */
  column: string;
  kind: FieldKind;
  isSortable: boolean;
  /** The target field's search conditions, when the reference declares it in `searchBy`. */
  conditions: readonly Condition[];
  /**
   * The predicate on the target's row (alias `r`) that keeps only rows the caller may see: the trash and
   * the scope, its values written as checked literals (the same SQL serves the rows, the count and the
   * export, which bind different parameters). Null: every row.
   */
  visible: string | null;
  /**
   * Its complement: the target rows the caller may not see (trashed, or outside the scope), written so the
   * planner can estimate it from the columns' statistics (few, usually), or null: none.
   */
  unseen: string | null;
}

export const NO_CONTEXT: ListContext = { collation: null, related: new Map() };

/** The alias of a related field's target row inside its subqueries. */
export const RELATED_ALIAS = 'r';

/**
 * The list context of a caller on a resource. Example:
 * `parseListQuery(staff, query, { context: await listContext(db, { resource: staff, registry, principal, locale }) })`.
 */
export async function listContext(
  db: Queryable & { kind?: string },
  {
    resource,
    registry,
    principal,
    locale,
  }: {
    resource: Resource;
    registry: readonly Resource[];
    principal: Principal | undefined;
    locale?: string | undefined;
  },
): Promise<ListContext> {
  const [collation, related] = await Promise.all([
    textCollation(db, locale),
    relatedFields(db, resource, registry, principal),
  ]);
  return { collation, related };
}

/** The related fields a caller may use on a resource (see ListContext). */
export async function relatedFields(
  db: Queryable,
  resource: Resource,
  registry: readonly Resource[],
  principal: Principal | undefined,
): Promise<Map<string, RelatedField>> {
  const out = new Map<string, RelatedField>();
  for (const f of fieldsOf(resource)) {
    const { sortBy = [], searchBy = [] } = f.meta;
    if (f.kind !== 'reference' || (!sortBy.length && !searchBy.length)) continue;
    const target = registry.find((r) => r.name === f.meta.relation?.resource);
    if (!target || (principal && !mayRead(principal, target))) continue;
    const hidden = hiddenFields(principal, target);
    const scope = await rowScope(db, target, principal);
    const visible = scopeSql(target, scope, literal, `${RELATED_ALIAS}.`);
    // `rows: 'all'`: the scope's own predicate without the trash's (a predicate on NULL is not true either).
    const own = scopeSql(target, scope, literal, `${RELATED_ALIAS}.`, 'all');
    const trashed = liveSql(target, `${RELATED_ALIAS}.`, 'trash');
    const unseen = [trashed, own && `(${own}) IS NOT TRUE`].filter(Boolean).join(' OR ') || null;
    for (const name of new Set([...sortBy, ...searchBy])) {
      const tf = fieldsOf(target).find((x) => x.name === name);
      if (!tf || hidden.has(name) || tf.meta.computed) continue;
      const path = `${includeNameOf(f)}.${name}`;
      out.set(path, {
        path,
        via: f.name,
        targetTable: target.table,
        column: name,
        kind: tf.kind,
        isSortable: sortBy.includes(name) && tf.isSortable,
        conditions: searchBy.includes(name) ? tf.conditions : [],
        visible,
        unseen,
      });
    }
  }
  return out;
}

/** A scope value as an SQL literal: only ids (digit strings) and lists of them ever reach it. */
function literal(value: unknown): string {
  const digits = (v: unknown) => {
    const s = String(v);
    if (!/^\d{1,19}$/.test(s)) throw new Error('related scope: not an id');
    return s;
  };
  return Array.isArray(value) ? `'{${value.map(digits).join(',')}}'` : `'${digits(value)}'`;
}

/**
 * The collation of text sorts for a request's language: case-insensitive ICU order everywhere
 * (`und-x-icu`: a, A, b, B), and under zh-CN the Chinese rules (`zh-x-icu`: pinyin) where the database's
 * ICU has them. PostgreSQL built with ICU has both; PGlite has `und-x-icu` only (its ICU carries no Chinese
 * tailoring, so Chinese text sorts by code point there). Null without ICU: the column's own collation.
 */
export async function textCollation(db: Queryable, locale: string | undefined): Promise<string | null> {
  const known = await collationsOf(db);
  if (locale === 'zh-CN' && known.has('zh-x-icu')) return 'zh-x-icu';
  return known.has('und-x-icu') ? 'und-x-icu' : null;
}

const collationCache = keptUnlessFailed<object, Set<string>>();

/** Read once per database (a request's or a hook's wrapper shares its database's); a failed read is not kept. */
function collationsOf(db: Queryable): Promise<Set<string>> {
  return collationCache(databaseOf(db), () =>
    db
      .query<{ name: string }>(
        `SELECT collname AS name FROM pg_collation WHERE collname IN ('und-x-icu', 'zh-x-icu')`,
      )
      .then(({ rows }) => new Set(rows.map((r) => r.name))),
  );
}

/** The SQL of a related field's value for the row of `table` (NULL when the caller may not see it). */
export function relatedValueSql(table: string, f: RelatedField): string {
  const r = RELATED_ALIAS;
  const where = [`${r}."id" = ${ident(table)}.${ident(f.via)}`, f.visible].filter(Boolean).join(' AND ');
  return `(SELECT ${r}.${ident(f.column)} FROM ${ident(f.targetTable)} ${r} WHERE ${where})`;
}

/** `"staff"."department_id" IN (SELECT r."id" FROM "departments" r WHERE <cond> AND <visible>)`. */
export function relatedConditionSql(table: string, f: RelatedField, condition: string): string {
  const r = RELATED_ALIAS;
  const where = [condition, f.visible].filter(Boolean).join(' AND ');
  return `${ident(table)}.${ident(f.via)} IN (SELECT ${r}."id" FROM ${ident(f.targetTable)} ${r} WHERE ${where})`;
}

/** The columns a related page's branches add for their own-table sort terms (`__o1`..): stripped after. */
export const RELATED_ORDER_COLUMN = '__o';

/**
 * One read of a list sorted first by a related field, without computing that value per row of the table
 * (which sorted a million rows for every page: 9 s). The rows fall into two parts that never mix in the
 * order: those whose related value the caller sees (non-NULL), in the target's order, and the NULL ones
 * (no target, a target trashed, out of the caller's scope, or its value NULL), in the order of the terms
 * after it (the id last), after the first ascending and before them descending. So the statement is a
 * UNION ALL of the two, each already in that order and cut at `offset + limit` rows:
 * - the joined part walks the target's rows in its collated `(field, id)` index order and, for each, the
 *   list's rows through its live `(reference, id)` index (an incremental sort by the id within equal
 *   values), so the first page reads one target's rows, not the table;
 * - the NULL part is the rows without a reference (the same index, `IS NULL`) and, per target the caller
 *   cannot see or whose value is NULL, its rows (the same index), sorted by the id: its cost grows with
 *   the rows under unseen targets that pass the list's filter (a trashed department's; for a scoped
 *   caller, its staff scope usually leaves none), not with the table.
 * The parts' SQL is the same terms with the related value replaced by what it is in that part (the
 * target's column, or NULL), so the keyset predicate after a cursor (keyset.ts) means the same in each and
 * the keys read for the next cursor are the same text as the per-row value's. An Append runs its parts in
 * order and stops at the LIMIT: a first page filled by the first part never starts the second.
 * Example: `relatedPageSql(staff, { select, where, order, keyOrder: q.order, from: null, bind, limit: 16, offset: 0 })`.
 */
export function relatedPageSql(
  resource: Resource,
  p: {
    /** The select list of the listed resource's columns (records.ts selectColumns). */
    select: string;
    /** The query's own filter without `WHERE`, or ''. */
    where: string;
    /** The read's order (reversed for a read from the end); its first term is the related one. */
    order: readonly SortKey[];
    /** The query's order: the keys read for cursors and anchors are in it. */
    keyOrder: readonly SortKey[];
    from: { keys: readonly (string | null)[]; inclusive: boolean } | null;
    bind: (value: unknown) => string;
    limit: number;
    offset: number;
  },
): string {
  const head = p.order[0]!;
  const f = head.related!.field;
  const r = RELATED_ALIAS;
  const table = ident(resource.table);
  const via = `${table}.${ident(f.via)}`;
  const target = `${ident(f.targetTable)} ${r}`;
  const value = `${r}.${ident(f.column)}`;
  const dir = (o: SortKey) => (o.desc ? 'DESC' : 'ASC');
  const extra = (i: number) => ident(`${RELATED_ORDER_COLUMN}${i}`);
  const branch = (headSql: string, isNullable: boolean) => {
    const swap = (order: readonly SortKey[]) =>
      order.map((o, i) => (i === 0 ? { ...o, sql: headSql, isNullable } : o));
    const order = swap(p.order);
    const conditions = [
      p.where,
      p.from && keysetPredicate(resource, order, p.from.keys, p.bind, p.from.inclusive),
    ]
      .filter(Boolean)
      .map((c) => `(${c})`);
    const columns = [
      p.select,
      keysColumn(swap(p.keyOrder)),
      ...order.slice(1).map((o, i) => `${o.sql} AS ${extra(i + 1)}`),
    ];
    return { columns: columns.join(', '), conditions };
  };
  const rest = (alias: string) => p.order.slice(1).map((o, i) => `${alias}.${extra(i + 1)} ${dir(o)}`);
  const k = p.offset + p.limit;

  const seen = [f.visible, `${value} IS NOT NULL`].filter(Boolean).join(' AND ');
  const j = branch(head.related!.targetSql, false);
  const joined =
    `SELECT s.* FROM ${target} CROSS JOIN LATERAL (SELECT ${j.columns} FROM ${table} ` +
    `WHERE ${[`${via} = ${r}."id"`, ...j.conditions].join(' AND ')}) s WHERE ${seen} ` +
    `ORDER BY ${[`${head.related!.targetSql} ${dir(head)}`, ...rest('s')].join(', ')} LIMIT ${k}`;

  const n = branch('NULL::text', true);
  const own = (c: string) => `SELECT ${n.columns} FROM ${table} WHERE ${[c, ...n.conditions].join(' AND ')}`;
  // Per unseen target through the (reference, id) index (OFFSET 0 keeps the planner from a hash join over
  // the whole table, which it picks when it misjudges how few targets are unseen).
  // NOT (seen), spelled out so the planner estimates it from statistics (a misjudged "half the targets"
  // made the whole statement look costly enough for JIT compilation: a second per page).
  const hidden = [f.unseen, `${value} IS NULL`].filter(Boolean).join(' OR ');
  const unseen =
    `SELECT u.* FROM ${target} CROSS JOIN LATERAL (${own(`${via} = ${r}."id"`)} OFFSET 0) u ` +
    `WHERE ${hidden}`;
  const nullRows = `${own(`${via} IS NULL`)} UNION ALL ${unseen}`;
  const nulls = `SELECT * FROM (${nullRows}) n ORDER BY ${rest('n').join(', ')} LIMIT ${k}`;

  // PostgreSQL's default: NULLs last ascending, first descending (as the per-row value placed them).
  const parts = head.desc ? [nulls, joined] : [joined, nulls];
  return `SELECT * FROM (${parts.map((s) => `(${s})`).join(' UNION ALL ')}) u LIMIT ${p.limit} OFFSET ${p.offset}`;
}
