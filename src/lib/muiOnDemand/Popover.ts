/** MUI's Popover on demand: see ./onDemand.tsx and scripts/lib/vite-lean-deps.ts. */
import type { PopoverProps } from '@mui/material/Popover';
import { onDemand, openOrKeptMounted } from './onDemand.tsx';

export { getOffsetLeft, getOffsetTop, PopoverPaper, PopoverRoot } from '@mui/material/esm/Popover/Popover.js';
export { default as popoverClasses } from '@mui/material/esm/Popover/popoverClasses.js';
export * from '@mui/material/esm/Popover/popoverClasses.js';

export default onDemand<PopoverProps, HTMLDivElement>({
  name: 'Popover',
  themeNames: ['MuiPopover', 'MuiModal'],
  load: () => import('@mui/material/Popover'),
  shows: openOrKeptMounted,
});
