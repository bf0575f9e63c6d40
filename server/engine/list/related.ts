import type { Condition, Resource } from '../../../resources/define.ts';
import type { FieldKind } from '../../../resources/fields.ts';
import type { Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { hiddenFields } from '../field-access.ts';
import { rowScope, scopeSql } from '../scope.ts';
import { fieldsOf, ident, includeNameOf } from '../schema/fields.ts';
import { mayRead } from './include-access.ts';
import { databaseOf } from '../../db/identity.ts';

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

const collationCache = new WeakMap<object, Promise<Set<string>>>();

/** Read once per database (a request's or a hook's wrapper shares its database's). */
function collationsOf(db: Queryable): Promise<Set<string>> {
  const key = databaseOf(db);
  let found = collationCache.get(key);
  if (!found) {
    found = db
      .query<{ name: string }>(
        `SELECT collname AS name FROM pg_collation WHERE collname IN ('und-x-icu', 'zh-x-icu')`,
      )
      .then(({ rows }) => new Set(rows.map((r) => r.name)));
    collationCache.set(key, found);
  }
  return found;
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
