/** Served by scripts/lib/resourceDescriptors.ts: `describeResource` of every resource of resources/index.ts. */
declare module 'virtual:resource-descriptors' {
  import type { ResourceDescriptor } from './descriptor.ts';

  export const descriptors: ResourceDescriptor[];
}

/** Served by scripts/lib/resourceDescriptors.ts: the @mui/icons-material icons the settings menu names. */
declare module 'virtual:menu-icons' {
  import type { SvgIconComponent } from '@mui/icons-material';

  export const MENU_ICONS: Partial<Record<string, SvgIconComponent>>;
}
