import type { Resource } from '../../../resources/define.ts';
import { metaDeep } from '../../../resources/define.ts';
import type { FieldAccess } from '../../providers/fieldAccess.ts';
import { restrictedView, restrictionOf } from '../../providers/fieldAccess.ts';

/**
 * A declared resource as the caller may see and write it, for the create, edit and show screens (SchemaView):
 * hidden fields are gone (no input, no show row, never validated or sent) and read-only fields are marked
 * `readOnly`, so the payload (formPayload) and the validation (zodResolver, through writeSchemas) leave them
 * out exactly as they do the server's read-only fields. The form shows them disabled (readOnlyByAccess).
 * The same object comes back while the access is unchanged, so the per-resource caches keep working.
 *
 * @example
 * declaredWithAccess(staff, { 'staff.phone': 'read' }).fields.find((f) => f.name === 'phone')?.meta.readOnly // true
 */
export function declaredWithAccess(resource: Resource, access: FieldAccess): Resource {
  return restrictedView(resource, access, cache, (r) => restrict(r, access));
}
const cache = new WeakMap<Resource, Map<string, Resource>>();

function restrict(resource: Resource, access: FieldAccess): Resource {
  const fields = resource.fields.flatMap((f) => {
    const restriction = restrictionOf(access, resource.name, f.name);
    if (restriction === 'hidden') return [];
    if (restriction !== 'read') return [f];
    // Declared metadata, or what the wrappers carry (descriptor.ts reads it the same way).
    const meta = Object.keys(f.meta).length ? f.meta : metaDeep(f.schema);
    return [{ ...f, meta: { ...meta, readOnly: true } }];
  });
  return { ...resource, fields };
}
