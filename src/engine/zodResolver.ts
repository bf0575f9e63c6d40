import { z } from 'zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Resource } from '../../resources/define.ts';
import { fieldsOf, withColumnLimits } from '../../resources/fields.ts';
import { resources as registered } from '../../resources/index.ts';
import { decodeMessage, issueKey } from '../../schemas/messages.ts';
import { formPayload, isClearable } from './formPayload.ts';
import { engineFields, inlineCollections } from './registry.ts';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A react-hook-form resolver that validates with the resource's own zod schema and words every issue with
 * the same `validation.*` keys the server uses (schemas/messages.ts), so the client shows exactly the
 * server's messages ("Cannot be empty", "Invalid email", ...). Values are returned untouched; the payload
 * is shaped at save time (formPayload). Rows of inline has-many lists are checked with the child's schema
 * (without its foreign key), so a row's error lands on `<key>.<index>.<field>` like the server's 422.
 *
 * @example
 * <SimpleForm resolver={zodResolver({ resource, translate, isEdit: false })}>...</SimpleForm>
 */
export function zodResolver({
  resource,
  translate,
  isEdit,
  registry = registered,
}: {
  resource: Resource;
  translate: Translate;
  isEdit: boolean;
  /** Where the children of inline lists are looked up (the engine's resource list). */
  registry?: readonly Resource[];
}): Resolver<FieldValues> {
  const schema = withInlineLists(validationSchema(resource, isEdit), resource, isEdit, registry);
  return async (values) => {
    const payload = formPayload({ resource, values, isEdit, registry });
    const result = await schema.safeParseAsync(payload, { error: (iss) => issueKey(iss) });
    if (result.success) return { values, errors: {} };
    return { values: {}, errors: toFieldErrors(result.error, translate) };
  };
}

/** The schema a form is checked with: read-only fields are not the user's; on edit, blank secrets are kept. */
function validationSchema(resource: Resource, isEdit: boolean): z.ZodObject {
  const readOnly = engineFields(resource)
    .filter((f) => f.meta.readOnly)
    .map((f) => f.name);
  const secrets = engineFields(resource)
    .filter((f) => f.meta.writeOnly)
    .map((f) => f.name);
  let schema = resource.schema.omit(mask(readOnly));
  if (isEdit && secrets.length) {
    schema = schema.partial(mask(secrets));
  }
  if (isEdit) {
    // A cleared optional field is sent as null (formPayload), which the server's update schema accepts.
    const clearable = engineFields(resource).filter(
      (f) =>
        !f.meta.readOnly && !f.meta.writeOnly && isClearable(f.schema) && !f.schema.safeParse(null).success,
    );
    if (clearable.length)
      schema = schema.extend(Object.fromEntries(clearable.map((f) => [f.name, f.schema.nullable()])));
  }
  // The column limits of the shared field model (an integer within its column type's range), as the server.
  const shape = schema.shape as Record<string, z.ZodType>;
  const limited = fieldsOf(resource).filter((f) => f.intRange && shape[f.name]);
  if (limited.length)
    schema = schema.extend(
      Object.fromEntries(limited.map((f) => [f.name, withColumnLimits(f, shape[f.name]!)])),
    );
  return schema;
}

/** Adds each inline has-many list: rows of the child's own form schema, without the foreign key. */
function withInlineLists(
  schema: z.ZodObject,
  resource: Resource,
  isEdit: boolean,
  registry: readonly Resource[],
): z.ZodObject {
  const collections = inlineCollections(resource, registry);
  if (!collections.length) return schema;
  return schema.extend(
    Object.fromEntries(
      collections.map((c) => {
        const row = validationSchema(c.child, isEdit)
          .omit(mask([c.foreignKey]))
          .extend({ id: z.string().optional() });
        const tooMany = `engine.record.too_many_items|${JSON.stringify({ max: c.maxItems })}`;
        return [c.key, z.array(row).max(c.maxItems, { message: tooMany }).optional()];
      }),
    ),
  );
}

// zod's mask type is keyed by the literal shape; the names here come from that same shape.
function mask(names: string[]): Record<string, never> {
  return Object.fromEntries(names.map((name) => [name, true])) as unknown as Record<string, never>;
}

function toFieldErrors(error: z.ZodError, translate: Translate): FieldErrors {
  const errors: Record<string, unknown> = {};
  for (const issue of error.issues) {
    const { key, params } = decodeMessage(issue.message);
    const path = issue.path.length ? issue.path.map(String) : ['root'];
    setOnce(errors, path, { type: issue.code, message: translate(key, { _: key, ...params }) });
  }
  return errors as FieldErrors;
}

/** Keeps the first message of each field, like react-hook-form's own resolvers. */
function setOnce(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const part of path.slice(0, -1)) {
    node = (node[part] ??= {}) as Record<string, unknown>;
  }
  const last = path[path.length - 1] ?? 'root';
  if (!(last in node)) node[last] = value;
}
