import { hasOperation } from '../../../resources/meta.ts';
import type { ResourceHeader as Resource, ResourceOperation } from '../../../resources/meta.ts';
import { hasPermission } from '../../providers/permissions.ts';
import { usePermissionList } from '../../providers/useCan.ts';

export type Ability = 'create' | 'update' | 'delete' | 'export' | 'import';

/**
 * What the signed-in staff member may do with a resource: the engine must serve the operation
 * (`operations`) and the user must hold `<permission>.<action>`. Buttons only mirror this; the server
 * enforces it.
 *
 * @example
 * const can = useAbilities(staff); if (can.delete) ...
 */
export function useAbilities(resource: Resource): Record<Ability, boolean> {
  const { permissions } = usePermissionList();
  const can = (ability: Ability) =>
    servesOperation(resource, ability) && hasPermission(permissions, `${resource.permission}.${ability}`);
  return {
    create: can('create'),
    update: can('update'),
    delete: can('delete'),
    export: can('export'),
    import: can('import'),
  };
}

/**
 * Whether the engine serves an operation. `operations: []` marks a collection a module serves itself; its
 * screens are then the read-only list.
 */
export function servesOperation(resource: Resource, operation: ResourceOperation): boolean {
  const declared = resource.options.operations;
  if (declared && declared.length === 0) return operation === 'list';
  return hasOperation(resource, operation);
}
