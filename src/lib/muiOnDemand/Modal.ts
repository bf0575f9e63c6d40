/** MUI's Modal on demand: see ./onDemand.tsx and scripts/lib/vite-lean-deps.ts. */
import type { ModalProps } from '@mui/material/Modal';
import { onDemand, openOrKeptMounted } from './onDemand.tsx';

export { ModalManager } from '@mui/material/esm/Modal/ModalManager.js';
export { default as modalClasses } from '@mui/material/esm/Modal/modalClasses.js';
export * from '@mui/material/esm/Modal/modalClasses.js';

export default onDemand<ModalProps, HTMLDivElement>({
  name: 'Modal',
  themeNames: ['MuiModal'],
  load: () => import('@mui/material/Modal'),
  shows: openOrKeptMounted,
});
