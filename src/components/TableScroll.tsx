import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { focusedRowSx } from './KeyRows.tsx';
import { rowKeyHandler } from './rowKeys.ts';

const onRowKeys = rowKeyHandler();

/**
 * A wide table's own scrolling box: on a phone the table scrolls sideways inside it and the page stays as
 * wide as the screen. It is a named, focusable region, so a keyboard user can scroll it with the arrow keys
 * (axe's scrollable-region-focusable). The arrow keys move through the table's rows as in every list
 * (rowKeys.ts: Up/Down from the box into the rows, Home/End, Enter on a row presses its `data-row-primary`).
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
      onKeyDown={onRowKeys}
      sx={[
        {
          overflowX: 'auto',
          maxWidth: '100%',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
        },
        focusedRowSx,
      ]}
    >
      {children}
    </Box>
  );
}
