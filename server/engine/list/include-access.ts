import type { Resource } from '../../../resources/define.ts';
import { AppError } from '../../core/errors.ts';
import { can, type Principal } from '../../core/principal.ts';
import { fieldsOf, includeNameOf } from '../schema/fields.ts';

/**
 * Read access to what a call embeds (API contract, Amendments, "Includes"): `include=<relation>` and an export
 * column that refers to other records need the read permission of the related resource, whatever the caller
 * may do with the resource itself. Without it the call is a 403 whose `errors` name each such include.
 */

/** The resource an include name embeds: a belongs-to's or many-to-many's target, or a has-many's child. */
function includeTarget(
  resource: Resource,
  registry: readonly Resource[],
  name: string,
): Resource | undefined {
  const relation = fieldsOf(resource).find(
    (f) => (f.kind === 'reference' || f.kind === 'references') && includeNameOf(f) === name,
  );
  const targetName = relation ? relation.meta.relation?.resource : resource.options.hasMany?.[name]?.resource;
  return targetName ? registry.find((r) => r.name === targetName) : undefined;
}

/** The resource an exported column refers to (a reference or references field), if any. */
function columnTarget(
  resource: Resource,
  registry: readonly Resource[],
  column: string,
): Resource | undefined {
  const f = fieldsOf(resource).find(
    (x) => x.name === column && (x.kind === 'reference' || x.kind === 'references'),
  );
  const targetName = f?.meta.relation?.resource;
  return targetName ? registry.find((r) => r.name === targetName) : undefined;
}

/** True when the caller may read the records of `target`. */
export function mayRead(principal: Principal | undefined, target: Resource): boolean {
  return can(principal ?? null, target.permission);
}

/** 403 naming every include whose target the caller may not read. */
export function assertIncludesReadable(
  resource: Resource,
  registry: readonly Resource[],
  principal: Principal | undefined,
  includes: readonly string[],
): void {
  const denied = includes.filter((name) => {
    const target = includeTarget(resource, registry, name);
    return !target || !mayRead(principal, target);
  });
  if (denied.length) throw forbiddenRelations(denied, 'engine.query.include_forbidden');
}

/**
 * The export columns the caller may have: columns named in `fields=` that refer to records the caller may not
 * read are a 403 naming them; from the default column set (no `fields=`) they are left out.
 */
export function readableExportColumns(
  resource: Resource,
  registry: readonly Resource[],
  principal: Principal | undefined,
  columns: readonly string[],
  isExplicit: boolean,
): string[] {
  const denied = columns.filter((column) => {
    const target = columnTarget(resource, registry, column);
    return target !== undefined && !mayRead(principal, target);
  });
  if (denied.length && isExplicit) throw forbiddenRelations(denied, 'engine.query.export_field_forbidden');
  return columns.filter((column) => !denied.includes(column));
}

function forbiddenRelations(names: readonly string[], key: string): AppError {
  return new AppError(403, key, {
    params: { field: names.join(', ').slice(0, 200) },
    fields: Object.fromEntries(names.map((name) => [name.slice(0, 100), [`${key}_short`]])),
  });
}
