import { resources as registered } from '../../../resources/index.ts';
import type { Resource } from '../../../resources/define.ts';

/** A role's data scope (the API contract's `data_scope`); a role without one behaves as `all`. */
export const DATA_SCOPES = ['all', 'department_and_below', 'department', 'self', 'custom'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];

/** One field's level in the role editor: writable is the absence of a `field_access` entry. */
export const FIELD_LEVELS = ['write', 'read', 'hidden'] as const;
export type FieldLevel = (typeof FIELD_LEVELS)[number];

/** A role's `field_access`: `"<resource>.<field>"` -> `hidden` | `read`. */
export type RoleFieldAccess = Record<string, 'hidden' | 'read'>;

/** The data scope a role's value stands for (`all` when it has none or an unknown one). */
export function dataScopeOf(value: unknown): DataScope {
  return DATA_SCOPES.includes(value as DataScope) ? (value as DataScope) : 'all';
}

/** The level of `<resource>.<field>` in a role's field access. */
export function levelOf(access: RoleFieldAccess | null | undefined, key: string): FieldLevel {
  const value = access?.[key];
  return value === 'hidden' || value === 'read' ? value : 'write';
}

/** The field access with `<resource>.<field>` set to `level` (writable removes the entry). */
export function withLevel(
  access: RoleFieldAccess | null | undefined,
  key: string,
  level: FieldLevel,
): RoleFieldAccess {
  const next = { ...(access ?? {}) };
  if (level === 'write') delete next[key];
  else next[key] = level;
  return next;
}

/** The registered resources a page of the permission tree stands for (their permission is the page's name). */
export function resourcesOfPage(page: string, list: readonly Resource[] = registered): Resource[] {
  return list.filter((resource) => resource.permission === page);
}

/** The fields a role may restrict: every field a record answers (write-only ones are never shown anyway). */
export function restrictableFields(resource: Resource): string[] {
  return resource.fields.filter((f) => !f.meta.writeOnly).map((f) => f.name);
}
