import type { Resource } from '../../../resources/define.ts';

/**
 * The values a create form starts with: each field's zod `.default(...)`, found by parsing `undefined`
 * (so wrapped defaults work too). Fields without a default are left out, so required ones stay empty.
 */
export function schemaDefaults(resource: Resource): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { name, schema, meta } of resource.fields) {
    if (meta.readOnly || meta.writeOnly) continue;
    const parsed = schema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) values[name] = parsed.data;
  }
  return values;
}
