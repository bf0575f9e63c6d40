/** MUI's Dialog on demand: see ./onDemand.tsx and scripts/lib/vite-lean-deps.ts. */
import type { DialogProps } from '@mui/material/Dialog';
import { onDemand, openOrKeptMounted } from './onDemand.tsx';

export { default as dialogClasses } from '@mui/material/esm/Dialog/dialogClasses.js';
export * from '@mui/material/esm/Dialog/dialogClasses.js';

export default onDemand<DialogProps, HTMLDivElement>({
  name: 'Dialog',
  themeNames: ['MuiDialog', 'MuiModal'],
  load: () => import('@mui/material/Dialog'),
  shows: openOrKeptMounted,
});
