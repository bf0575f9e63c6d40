/** MUI's Popper (tooltips, autocomplete lists) on demand: see ./onDemand.tsx and scripts/lib/vite-lean-deps.ts. */
import type { PopperProps } from '@mui/material/Popper';
import { onDemand, openOrKeptMounted } from './onDemand.tsx';

export { default as popperClasses } from '@mui/material/esm/Popper/popperClasses.js';
export * from '@mui/material/esm/Popper/popperClasses.js';

export default onDemand<PopperProps, HTMLDivElement>({
  name: 'Popper',
  themeNames: ['MuiPopper'],
  load: () => import('@mui/material/Popper'),
  shows: openOrKeptMounted,
});
