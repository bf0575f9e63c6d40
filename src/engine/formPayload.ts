import type { Resource } from '../../resources/define.ts';
import { acceptsNull } from './fieldKind.ts';
import { engineFields } from './registry.ts';

/**
 * What a form sends: only the resource's own writable fields (never id, timestamps or read-only values);
 * blank values are left out on create and on write-only fields (a blank password keeps the old one), and
 * are sent as null (or '') when an edit clears a field.
 *
 * @example
 * formPayload({ resource, values: { id: '1', name: 'Li', password: '' }, isEdit: true }) // { name: 'Li' }
 */
export function formPayload({
  resource,
  values,
  isEdit,
}: {
  resource: Resource;
  values: Record<string, unknown>;
  isEdit: boolean;
}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, schema, meta } of engineFields(resource)) {
    if (meta.readOnly || !(name in values)) continue;
    const value = values[name];
    if (!isBlank(value)) {
      out[name] = value;
    } else if (isEdit && !meta.writeOnly) {
      out[name] = acceptsNull(schema) ? null : value === undefined ? null : value;
    }
  }
  return out;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
