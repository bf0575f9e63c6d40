import type { Resource } from '../../resources/define.ts';
import { engineFields } from './registry.ts';

/**
 * What a form sends: only the resource's own writable fields (never id, timestamps or read-only values).
 * Blank values are left out on create and on write-only fields (a blank password keeps the old one); when an
 * edit blanks a field, it is sent as whatever blank the schema accepts (null, then ''), else as null when the
 * field is optional without a default (the column is nullable), else left out.
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
      else if (!isOptional(schema) || isClearable(schema)) out[name] = null;
    }
  }
  return out;
}

/** How a cleared field is sent, in order of preference. */
const BLANKS = [null, ''] as const;

function isOptional(schema: Resource['fields'][number]['schema']): boolean {
  return schema.safeParse(undefined).success;
}

/**
 * Optional without a default (a nullable column): a cleared value is sent as null, which the server's update
 * schema accepts for such fields (server/engine/schemas.ts) and stores as NULL. A field with a default is
 * NOT NULL, so clearing it keeps the stored value.
 */
export function isClearable(schema: Resource['fields'][number]['schema']): boolean {
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data === undefined;
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
