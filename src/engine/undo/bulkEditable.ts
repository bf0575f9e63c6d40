import type { EngineField, ResourceDescriptor } from '../data/descriptor.ts';

/**
 * The fields a bulk edit offers (BulkEditButton): those the caller may write (the list's descriptor already
 * marks read-only and drops hidden fields, withFieldAccess), except unique ones (one value on many rows
 * would collide), write-only secrets and JSON. Kept apart from the dialog so the list loads no zod.
 */
export function bulkEditableFields(resource: ResourceDescriptor): EngineField[] {
  return resource.fields.filter(
    (f) => !f.meta.readOnly && !f.meta.writeOnly && !f.meta.unique && f.kind !== 'json',
  );
}
