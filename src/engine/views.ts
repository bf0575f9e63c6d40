import type { ComponentType } from 'react';
import type { Resource } from '../../resources/define.ts';

/** A screen of a resource; it receives the resource so it can reuse engine parts (renderField, ResourceForm...). */
export type ResourceView = ComponentType<{ resource: Resource }>;

/**
 * Hand-written screens that replace generated ones, per resource and per view; `false` removes a view (no
 * show page, say). Everything not listed stays generated. The admin app's table is `src/admin/overrides.ts`.
 */
export interface ResourceViews {
  list?: ResourceView | false;
  create?: ResourceView | false;
  edit?: ResourceView | false;
  show?: ResourceView | false;
}
