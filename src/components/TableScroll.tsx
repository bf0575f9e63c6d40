import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * A wide table's own scrolling box: on a phone the table scrolls sideways inside it and the page stays as
 * wide as the screen. It is a named, focusable region, so a keyboard user can scroll it with the arrow keys
 * (axe's scrollable-region-focusable).
 *
 * @example
 * <TableScroll label={t('system.tasks.title')}><Table aria-label={t('system.tasks.title')}>...</Table></TableScroll>
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      sx={{
        overflowX: 'auto',
        maxWidth: '100%',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
      }}
    >
      {children}
    </Box>
  );
}
