/** MUI's Menu on demand: see ./onDemand.tsx and scripts/lib/vite-lean-deps.ts. */
import type { MenuProps } from '@mui/material/Menu';
import { onDemand, openOrKeptMounted } from './onDemand.tsx';

export { default as menuClasses } from '@mui/material/esm/Menu/menuClasses.js';
export * from '@mui/material/esm/Menu/menuClasses.js';

export default onDemand<MenuProps, HTMLDivElement>({
  name: 'Menu',
  themeNames: ['MuiMenu', 'MuiPopover', 'MuiModal'],
  load: () => import('@mui/material/Menu'),
  shows: openOrKeptMounted,
});
