import type { ResourceDescriptor as Resource } from '../../engine/data/descriptor.ts';
import { ResourceList } from '../../engine/list/ResourceList.tsx';

/**
 * `/settings/staff`: the generated list (masked phone and email, filters name, phone, department, role,
 * state, live refresh). The department filter is the engine's tree picker (departments are a tree) and
 * matches the department and all its sub-departments (the server's department filter does that).
 */
export function StaffList({ resource }: { resource: Resource }) {
  return <ResourceList resource={resource} />;
}
