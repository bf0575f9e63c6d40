import type { FastifyRequest } from 'fastify';
import type { Resource } from '../../resources/define.ts';
import { fieldByName } from './fields.ts';

/** A field's label in the request's language: `meta.label`, else `resources.<name>.fields.<field>`, else the name. */
export function fieldLabel(request: FastifyRequest, resource: Resource, field: string): string {
  const key = fieldByName(resource, field)?.meta.label ?? `resources.${resource.name}.fields.${field}`;
  const text = request.t(key);
  return text === key ? field : text;
}

/** An enum value's label: `resources.<name>.enums.<field>.<value>`, else the value itself. */
export function enumLabel(request: FastifyRequest, resource: Resource, field: string, value: string): string {
  const key = `resources.${resource.name}.enums.${field}.${value}`;
  const text = request.t(key);
  return text === key ? value : text;
}
