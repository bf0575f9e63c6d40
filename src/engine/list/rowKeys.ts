import { rowKeyHandler } from '../../components/rowKeys.ts';
import { firstCellOf } from './inline/cellKeys.ts';

/**
 * The keyboard in a generated list's table and phone cards: the shared row keys (src/components/rowKeys.ts:
 * Up/Down, Home/End, Enter opens the row as a click would: its link, edit or show), and ArrowRight on a
 * focused row moves into its first cell, where the arrow keys move from cell to cell (inline/cellKeys.ts).
 *
 * @example
 * <Box sx={{ display: 'contents' }} onKeyDown={onRowKeys}><Datagrid rowClick="edit" /></Box>
 */
export const onRowKeys = rowKeyHandler({ intoRow: firstCellOf });
