import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Resource } from '../../../resources/define.ts';
import { resources as registered } from '../../../resources/index.ts';
import { bodySchemas } from '../../../resources/inline-lists.ts';
import { withRules, writeSchemas } from '../../../resources/write.ts';
import { decodeMessage, issueKey } from '../../../schemas/messages.ts';
import { formPayload, isBlank } from './formPayload.ts';
import { schemaFields } from './schemaFields.ts';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A react-hook-form resolver that checks what the form will send (formPayload) with the server's own body
 * schema for the resource (resources/inline-lists.ts bodySchemas over resources/write.ts writeSchemas: the
 * very schema the API validates with), and words every issue with the same `validation.*` keys the server
 * uses (schemas/messages.ts), so the client rejects exactly the fields the server would reject, with the
 * server's messages ("Cannot be empty", "Invalid email", ...). Rows of inline has-many lists are checked
 * with the child's schema, so a row's error lands on `<key>.<index>.<field>` like the server's 422.
 *
 * One rule is the form's own: on edit, a required field the user blanked is "Cannot be empty". The payload
 * leaves it out (the API's partial update would keep the stored value), so without this rule clearing it
 * would silently do nothing. (A blanked field with a default keeps its value, as it always did.)
 *
 * Values are returned untouched; the payload is shaped again at save time.
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
  const schemas = formSchemas(resource, registry);
  const schema = isEdit ? schemas.update : schemas.create;
  return async (values) => {
    const payload = formPayload({ resource, values, isEdit, registry });
    const result = await schema.safeParseAsync(payload, { error: (iss) => issueKey(iss) });
    const issues = [
      ...(isEdit ? blankedOnEdit(resource, values, payload) : []),
      ...(result.success ? [] : result.error.issues),
    ];
    if (!issues.length) return { values, errors: {} };
    return { values: {}, errors: toFieldErrors(issues, translate) };
  };
}

/**
 * The server's body schemas; when the registry lacks the child of an inline list (a screen given part of
 * the registry), the form shows no such list (inlineCollections), so it checks the resource's own fields.
 */
function formSchemas(resource: Resource, registry: readonly Resource[]) {
  const inline = Object.values(resource.options.hasMany ?? {}).filter((spec) => spec.inline);
  const complete = inline.every((spec) => registry.some((r) => r.name === spec.resource));
  if (complete) return bodySchemas(resource, registry);
  const own = writeSchemas(resource);
  return { create: withRules(resource, own.create), update: withRules(resource, own.update) };
}

/** Required fields an edit form blanked (the payload leaves them out). */
function blankedOnEdit(
  resource: Resource,
  values: Record<string, unknown>,
  payload: Record<string, unknown>,
): { path: PropertyKey[]; message: string; code: string }[] {
  return schemaFields(resource)
    .filter(
      (f) =>
        !f.meta.readOnly &&
        !f.meta.writeOnly &&
        f.name in values &&
        isBlank(values[f.name]) &&
        !(f.name in payload) &&
        !f.schema.safeParse(undefined).success,
    )
    .map((f) => ({ path: [f.name], message: 'validation.required', code: 'invalid_type' }));
}

function toFieldErrors(
  issues: readonly { path: PropertyKey[]; message: string; code: string }[],
  translate: Translate,
): FieldErrors {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) {
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
