import type { Resource } from '../../../resources/define.ts';
import { isBlank } from '../data/changedFields.ts';
import { resources as registered } from '../../../resources/index.ts';
import { inlineCollections, schemaFields } from './schemaFields.ts';
import type { InlineCollection } from './schemaFields.ts';

/**
 * What a form sends: only the resource's own writable fields (never id, timestamps or read-only values).
 * Blank values are left out on create and on write-only fields (a blank password keeps the old one); when an
 * edit blanks a field, it is sent as whatever blank the schema accepts (null, then ''), else as null when the
 * field is optional without a default (the column is nullable), else left out.
 *
 * Inline has-many lists (children of `registry`) are sent as rows of the child's writable fields without the
 * foreign key, plus the `id` of an existing child; a row with an id follows the edit rules, a new row the
 * create rules.
 *
 * @example
 * formPayload({ resource, values: { id: '1', name: 'Li', password: '' }, isEdit: true }) // { name: 'Li' }
 */
export function formPayload({
  resource,
  values,
  isEdit,
  registry = registered,
}: {
  resource: Resource;
  values: Record<string, unknown>;
  isEdit: boolean;
  /** Where the children of inline lists are looked up (the engine's resource list). */
  registry?: readonly Resource[];
}): Record<string, unknown> {
  const out = ownFieldsPayload(resource, values, isEdit);
  for (const collection of inlineCollections(resource, registry)) {
    const rows = values[collection.key];
    if (Array.isArray(rows)) out[collection.key] = rows.map((row) => inlineRowPayload(collection, row));
  }
  return out;
}

/** One row of an inline list as it is sent: `id` when it is an existing child, then its fields. */
export function inlineRowPayload(collection: InlineCollection, row: unknown): Record<string, unknown> {
  const values = { ...((row ?? {}) as Record<string, unknown>) };
  delete values[collection.foreignKey];
  const id = values.id;
  const isExisting = !isBlank(id);
  return {
    ...(isExisting ? { id: String(id) } : {}),
    ...ownFieldsPayload(collection.child, values, isExisting),
  };
}

/**
 * A loaded record with its inline lists shaped as a form sends them, so the dataProvider can tell whether
 * the user changed a list (an unchanged list is not sent).
 */
export function asSentInlineLists(
  resource: Resource,
  record: Record<string, unknown>,
  registry: readonly Resource[] = registered,
): Record<string, unknown> {
  const out = { ...record };
  for (const collection of inlineCollections(resource, registry)) {
    const rows = record[collection.key];
    if (Array.isArray(rows)) out[collection.key] = rows.map((row) => inlineRowPayload(collection, row));
  }
  return out;
}

/** asSentInlineLists of the declared resource called `name` in `registry` (the record as it is if none). */
export function asSentInlineListsOf(
  name: string,
  record: Record<string, unknown>,
  registry: readonly Resource[] = registered,
): Record<string, unknown> {
  const resource = registry.find((r) => r.name === name);
  return resource ? asSentInlineLists(resource, record, registry) : record;
}

function ownFieldsPayload(
  resource: Resource,
  values: Record<string, unknown>,
  isEdit: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, schema, meta } of schemaFields(resource)) {
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
 * schema accepts for such fields (resources/write.ts) and stores as NULL. A field with a default is
 * NOT NULL, so clearing it keeps the stored value.
 */
export function isClearable(schema: Resource['fields'][number]['schema']): boolean {
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data === undefined;
}

export { isBlank };
