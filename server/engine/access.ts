import type { Resource } from '../../resources/define.ts';

/** What an engine call does to a resource; each needs its own permission (`permissionFor`). */
export type Action = 'read' | 'create' | 'update' | 'delete' | 'export' | 'import';

/** The permission name an action needs: `<permission>` to read, `<permission>.<action>` otherwise. */
export function permissionFor(resource: Resource, action: Action): string {
  return action === 'read' ? resource.permission : `${resource.permission}.${action}`;
}
