import type { ComponentType } from 'react';
import type { Resource } from '../../resources/define.ts';
import type { ResourceDescriptor } from './data/descriptor.ts';

/**
 * A create, edit or show screen of a resource; it receives the resource's zod declaration so it can reuse
 * engine parts (renderField, ResourceForm...). It loads with its own lazy chunk (SchemaView).
 */
export type ResourceView = ComponentType<{ resource: Resource }>;

/**
 * A list screen of a resource; it receives the resource's descriptor (plain data, descriptor.ts), so a list
 * loads no zod.
 */
export type ListView = ComponentType<{ resource: ResourceDescriptor }>;

/**
 * Hand-written screens that replace generated ones, per resource and per view; `false` removes a view (no
 * show page, say). Everything not listed stays generated. The admin app's table is `src/admin/overrides.ts`.
 */
export interface ResourceViews {
  list?: ListView | false;
  create?: ResourceView | false;
  edit?: ResourceView | false;
  show?: ResourceView | false;
}
