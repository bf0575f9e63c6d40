import type { FieldAccess, FieldRestriction } from '../../providers/fieldAccess.ts';
import { restrictedView, restrictionOf } from '../../providers/fieldAccess.ts';
import type { ResourceDescriptor } from './descriptor.ts';

/**
 * A resource as the caller may see it: hidden fields gone from its fields, sorts and searches (so no
 * column, filter, sort, column-chooser entry, show row or export column offers them) and read-only fields
 * marked `readOnly` (never sent). The list and every hand-written list override receive this one, from
 * EngineResource. The same descriptor comes back while the access is unchanged, so memoised screens stay put.
 *
 * @example
 * withFieldAccess(describeResource(staff), { 'staff.phone': 'hidden' }).fields // no phone
 */
export function withFieldAccess(resource: ResourceDescriptor, access: FieldAccess): ResourceDescriptor {
  return restrictedView(resource, access, cache, (r) => restrict(r, access));
}
const cache = new WeakMap<ResourceDescriptor, Map<string, ResourceDescriptor>>();

/** The fields of a resource the caller may read only (shown disabled in forms). */
export function readOnlyByAccess(resourceName: string, access: FieldAccess): Set<string> {
  return namesWith(resourceName, access, 'read');
}

/** The fields of a resource hidden from the caller. */
export function hiddenByAccess(resourceName: string, access: FieldAccess): Set<string> {
  return namesWith(resourceName, access, 'hidden');
}

function namesWith(resourceName: string, access: FieldAccess, wanted: FieldRestriction): Set<string> {
  const prefix = `${resourceName}.`;
  return new Set(
    Object.entries(access)
      .filter(([key, restriction]) => key.startsWith(prefix) && restriction === wanted)
      .map(([key]) => key.slice(prefix.length)),
  );
}

function restrict(resource: ResourceDescriptor, access: FieldAccess): ResourceDescriptor {
  const isHidden = (name: string) => restrictionOf(access, resource.name, name) === 'hidden';
  const fields = resource.fields
    .filter((f) => !isHidden(f.name))
    .map((f) =>
      restrictionOf(access, resource.name, f.name) === 'read' ? { ...f, meta: { ...f.meta, readOnly: true } } : f,
    );
  const sortable = resource.sortable.filter((name) => !isHidden(name));
  // A default order on a hidden field would be refused (422): the newest records first instead.
  const defaultSort = isHidden(resource.defaultSort.field)
    ? { field: 'id', order: 'desc' as const }
    : resource.defaultSort;
  const representation = resource.options.recordRepresentation;
  const options =
    representation && isHidden(representation)
      ? { ...resource.options, recordRepresentation: 'id' }
      : resource.options;
  return {
    ...resource,
    options,
    fields,
    sortable,
    defaultSort,
    searchable: resource.searchable.filter((f) => !isHidden(f.name)),
  };
}
