import type { z } from 'zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Resource } from '../../resources/define.ts';
import { decodeMessage, issueKey } from '../../schemas/messages.ts';
import { formPayload, isClearable } from './formPayload.ts';
import { engineFields } from './registry.ts';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A react-hook-form resolver that validates with the resource's own zod schema and words every issue with
 * the same `validation.*` keys the server uses (schemas/messages.ts), so the client shows exactly the
 * server's messages ("Cannot be empty", "Invalid email", ...). Values are returned untouched; the payload
 * is shaped at save time (formPayload).
 *
 * @example
 * <SimpleForm resolver={zodResolver({ resource, translate, isEdit: false })}>...</SimpleForm>
 */
export function zodResolver({
  resource,
  translate,
  isEdit,
}: {
  resource: Resource;
  translate: Translate;
  isEdit: boolean;
}): Resolver<FieldValues> {
  const schema = validationSchema(resource, isEdit);
  return async (values) => {
    const payload = formPayload({ resource, values, isEdit });
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
  return schema;
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
