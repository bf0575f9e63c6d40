import type { Resource } from '../../../resources/define.ts';
import { fieldByName } from '../../../resources/fields.ts';
import { AppError } from '../../core/errors.ts';
import { servedResources } from '../../engine/served.ts';

/** A resource's `file()` / `image()` field that an upload or a download is for (`?field=products.photo_id`). */
export interface BoundField {
  /** `<resource>.<field>`, as stored in `asset_fields.field`. */
  name: string;
  kind: 'file' | 'image';
  /** Any of these lets the caller upload for the field: the resource's `.create`/`.update`, or its inline parent's. */
  writeNames: string[];
  /** Any of these lets the caller download what was uploaded for the field: the resource's read permission. */
  readNames: string[];
}

/**
 * The field named by `<resource>.<field>` among the served resources. A name that is not a served
 * resource's file()/image() field is a 422 on `field`.
 */
export function boundField(spec: string): BoundField {
  const [resourceName = '', fieldName = '', ...rest] = spec.split('.');
  const resource = servedResources().find((r) => r.name === resourceName);
  const upload = resource && !rest.length ? fieldByName(resource, fieldName)?.meta.upload : undefined;
  if (!resource || !upload) throw AppError.validation({ field: ['validation.invalid'] });
  const owners: Resource[] = [
    resource,
    ...servedResources().filter((parent) =>
      Object.values(parent.options.hasMany ?? {}).some((h) => h.inline && h.resource === resource.name),
    ),
  ];
  return {
    name: `${resource.name}.${fieldName}`,
    kind: upload,
    writeNames: owners.flatMap((r) => [`${r.permission}.create`, `${r.permission}.update`]),
    readNames: owners.map((r) => r.permission),
  };
}

/** The `field` query parameter of an upload or download, resolved; null when absent. */
export function fieldOfQuery(query: unknown): BoundField | null {
  const value = (query as Record<string, unknown> | undefined)?.field;
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length > 200)
    throw AppError.validation({ field: ['validation.invalid'] });
  return boundField(value);
}
