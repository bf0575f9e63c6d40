import type { Resource } from '../../../resources/define.ts';
import type { FieldInfo } from '../../../resources/fields.ts';

/**
 * The field model itself lives in resources/fields.ts (shared with the client); this file re-exports it and
 * adds what only the server needs (SQL identifiers, join tables, include names).
 */
export {
  describeField,
  fieldByName,
  fieldsOf,
  type FieldInfo,
  type FieldKind,
} from '../../../resources/fields.ts';

/** Singular of a snake_case table name for join-table columns: `gadgets` -> `gadget`, `staff` -> `staff`. */
export function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('ss') || !name.endsWith('s')) return name;
  return name.slice(0, -1);
}

/** Where a many-to-many field lives: `role_ids` on `staff` -> staff_roles (staff_id, role_id). */
export function joinTableOf(
  resource: Resource,
  field: FieldInfo,
): { table: string; ownerColumn: string; targetColumn: string; targetTable: string } {
  const relation = field.meta.relation as { kind: 'manyToMany'; resource: string; through?: string };
  return {
    table: relation.through ?? `${resource.table}_${relation.resource}`,
    ownerColumn: `${singular(resource.table)}_id`,
    targetColumn: field.name.replace(/_ids$/, '_id'),
    targetTable: relation.resource,
  };
}

/** The include name of a relation field: `department_id` -> `department`, `role_ids` -> `roles`. */
export function includeNameOf(field: FieldInfo): string {
  return field.kind === 'reference' ? field.name.replace(/_id$/, '') : field.name.replace(/_ids$/, 's');
}

/** Double-quoted SQL identifier. Only ever called with names that come from a resource declaration. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
