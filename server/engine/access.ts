import type { Resource } from '../../resources/define.ts';

/** What an engine call does to a resource; each needs its own permission (`permissionFor`). */
export type Action = 'read' | 'create' | 'update' | 'delete' | 'export' | 'import' | RowActionKey;

/** A key of the resource's declared row actions (resources/define.ts `actions`): `<permission>.<key>`. */
export type RowActionKey = `action:${string}`;

/** The permission name an action needs: `<permission>` to read, `<permission>.<action>` otherwise. */
export function permissionFor(resource: Resource, action: Action): string {
  if (action === 'read') return resource.permission;
  return `${resource.permission}.${action.startsWith('action:') ? action.slice('action:'.length) : action}`;
}
