import type { Resource } from '../../resources/define.ts';
import { engineFields } from './registry.ts';

/**
 * What a form sends: only the resource's own writable fields (never id, timestamps or read-only values).
 * Blank values are left out on create and on write-only fields (a blank password keeps the old one); when an
 * edit blanks a field, it is sent as whatever blank the schema accepts (null, then ''), else left out.
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
    if (!isBlank(value)) out[name] = value;
    else if (isEdit && !meta.writeOnly) {
      const blank = BLANKS.find((candidate) => schema.safeParse(candidate).success);
      if (blank !== undefined) out[name] = blank;
      else if (!isOptional(schema)) out[name] = null;
    }
  }
  return out;
}

/** How a cleared field is sent, in order of preference. */
const BLANKS = [null, ''] as const;

function isOptional(schema: Resource['fields'][number]['schema']): boolean {
  return schema.safeParse(undefined).success;
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
