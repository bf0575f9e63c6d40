/** Served by scripts/lib/resourceDescriptors.ts: `describeResource` of every resource of resources/index.ts. */
declare module 'virtual:resource-descriptors' {
  import type { ResourceDescriptor } from './descriptor.ts';

  export const descriptors: ResourceDescriptor[];
}
