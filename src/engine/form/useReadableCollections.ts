import { useMemo } from 'react';
import type { Resource } from '../../../resources/define.ts';
import { hasPermission } from '../../providers/permissions.ts';
import { usePermissionList } from '../../providers/useCan.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { inlineCollections, type InlineCollection } from './schemaFields.ts';

/**
 * The inline has-many lists the signed-in staff member may read (the child resource's permission): only those
 * are loaded with `include=<key>` (the server answers 403 for the others) and shown on the edit and show
 * screens, so a list the user cannot see is never sent back, and its children stay as they are.
 *
 * @example
 * const include = useReadableCollections(resource).map((c) => c.key);
 */
export function useReadableCollections(resource: Resource): InlineCollection[] {
  const registry = useEngineRegistry();
  const { permissions } = usePermissionList();
  return useMemo(
    () => inlineCollections(resource, registry).filter((c) => hasPermission(permissions, c.child.permission)),
    [resource, registry, permissions],
  );
}
