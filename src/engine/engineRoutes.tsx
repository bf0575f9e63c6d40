import type { ReactNode } from 'react';
import type { ResourceDescriptor } from './data/descriptor.ts';
import { EngineResource } from './EngineResource.tsx';
import { registeredDescriptors } from './data/registry.ts';
import type { ResourceViews } from './views.ts';

export interface EngineRoute {
  /** Relative to the mount point: `<name>/*`. */
  path: string;
  /** The resource's name, to replace a placeholder page of the same path. */
  name: string;
  element: ReactNode;
  /** Reading needs the resource's permission page name. */
  permission: string;
}

/**
 * One route per registered resource, for the settings layout: resource `staff` serves `/settings/staff`,
 * `/settings/staff/create`, `/settings/staff/:id` (edit) and `/settings/staff/:id/show` (spec 2), each
 * the hand-written screen of `overrides` or the generated one.
 *
 * @example
 * export const settingsRoutes = [...pages, ...engineRoutes(registeredDescriptors, overrides)];
 */
export function engineRoutes(
  list: readonly ResourceDescriptor[] = registeredDescriptors,
  overrides: Record<string, ResourceViews> = {},
): EngineRoute[] {
  return list.map((resource) => ({
    path: `${resource.name}/*`,
    name: resource.name,
    permission: resource.permission,
    element: <EngineResource resource={resource} all={list} overrides={overrides} />,
  }));
}
