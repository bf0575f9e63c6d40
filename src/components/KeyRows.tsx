import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { KEY_ROW, rowKeyHandler } from './rowKeys.ts';

const onRowKeys = rowKeyHandler();

/**
 * Arrow keys through the rows inside it (tables' body rows and `data-key-row` cards or list items): Up/Down,
 * Home/End, Enter opens the row's `data-row-primary` control. The same mechanism as the generated lists
 * (src/components/rowKeys.ts); a focused row shows the focus ring. It lays nothing out.
 *
 * @example
 * <KeyRows><Table>...<TableRow><TableCell><Button data-row-primary>Open</Button></TableCell></TableRow></Table></KeyRows>
 */
export function KeyRows({ children }: { children: ReactNode }) {
  return (
    <Box sx={[{ display: 'contents' }, focusedRowSx]} onKeyDown={onRowKeys}>
      {children}
    </Box>
  );
}

/** A row the arrow keys moved to shows the focus ring. */
export const focusedRowSx = {
  [`& tbody tr:focus-visible, & [${KEY_ROW}]:focus-visible`]: {
    outline: '2px solid',
    outlineColor: 'primary.main',
    outlineOffset: -2,
  },
};
