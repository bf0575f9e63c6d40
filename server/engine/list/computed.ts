import type { Resource } from '../../../resources/define.ts';
import { fieldsOf, ident, type FieldInfo } from '../schema/fields.ts';

/**
 * Computed columns (resources/define.ts `computed()`, issue 35): the SQL of an `sql` one, with every column
 * it names checked against the row's own readable columns and qualified with the table, and the values of a
 * `value` one, filled in on loaded records. Example: `stock_value: computed(z.number(), { sql: (c) =>
 * `${c('price')} * ${c('stock')}` })` -> `("gadgets"."price" * "gadgets"."stock")`.
 */
export function computedSql(resource: Resource, f: Pick<FieldInfo, 'name' | 'meta'>): string | null {
  const declared = f.meta.computed?.sql;
  if (!declared) return null;
  let byField = cache.get(resource);
  if (!byField) cache.set(resource, (byField = new Map()));
  let sql = byField.get(f.name);
  if (sql === undefined) {
    const columns = rowColumns(resource);
    const column = (name: string) => {
      if (!columns.has(name))
        throw new Error(`computed ${resource.name}.${f.name}: ${name} is not a readable column of the row`);
      return `${ident(resource.table)}.${ident(name)}`;
    };
    sql = `(${declared(column)})`;
    byField.set(f.name, sql);
  }
  return sql;
}
/**
 * Per resource object, not per table name: a resource redefined with another expression (a dev-server reload,
 * make:migration after an edit) gets its own.
 */
const cache = new WeakMap<Resource, Map<string, string>>();

/** The SQL of a field's value in a query over the resource's table: its column, or its computed expression. */
export function fieldValueSql(resource: Resource, name: string): string {
  const f = fieldsOf(resource).find((x) => x.name === name);
  return (f && computedSql(resource, f)) ?? `${ident(resource.table)}.${ident(name)}`;
}

/** Fills in the `value` computed fields of loaded records (each from the record as read). */
export function applyComputedValues(resource: Resource, records: Record<string, unknown>[]): void {
  const computed = fieldsOf(resource).filter((f) => f.meta.computed?.value);
  for (const f of computed) for (const r of records) r[f.name] = f.meta.computed!.value!(r) ?? null;
}

/** Columns an expression may name: the id, the stored readable fields, the timestamps (no write-only one). */
function rowColumns(resource: Resource): Set<string> {
  const names = fieldsOf(resource)
    .filter((f) => f.isColumn && !f.meta.writeOnly)
    .map((f) => f.name);
  return new Set(['id', ...names, ...(resource.timestamps ? ['created_at', 'updated_at'] : [])]);
}
