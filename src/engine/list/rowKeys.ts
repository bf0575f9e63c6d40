import type { KeyboardEvent } from 'react';
import { firstCellOf } from './inline/cellKeys.ts';

/** Where the arrow keys keep their own meaning: text, menus, lists of options, sliders. */
const OWN_KEYS =
  'input:not([type="checkbox"]), textarea, select, [role="combobox"], [role="listbox"], [role="menu"], [role="slider"]';

/**
 * The keyboard in a list's table: ArrowDown and ArrowUp move the focus from row to row (from the header's
 * controls down into the first row), Enter on a focused row opens it as a click would (the row's link:
 * edit or show), ArrowRight on a focused row moves into its first cell. Put it on an element around the table (`onKeyDown={onRowKeys}`).
 *
 * @example
 * <Box sx={{ display: 'contents' }} onKeyDown={onRowKeys}><Datagrid rowClick="edit" /></Box>
 */
export function onRowKeys(event: KeyboardEvent<HTMLElement>): void {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target as HTMLElement;
  if (target.closest(OWN_KEYS)) return;
  const table = target.closest('table');
  if (!table) return;
  const row = target.closest<HTMLTableRowElement>('tbody tr');
  if (event.key === 'Enter') {
    if (!row || target !== row) return;
    event.preventDefault();
    row.click();
    return;
  }
  if (event.key === 'ArrowRight' && row && target === row) {
    // Into the row's cells, where the arrow keys move from cell to cell (inline/cellKeys.ts).
    const cell = firstCellOf(row);
    if (!cell) return;
    event.preventDefault();
    cell.focus();
    return;
  }
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const rows = Array.from(table.querySelectorAll<HTMLTableRowElement>('tbody tr'));
  const index = row ? rows.indexOf(row) : -1;
  const next = event.key === 'ArrowDown' ? rows[index + 1] : index > 0 ? rows[index - 1] : undefined;
  if (!next) return;
  event.preventDefault();
  next.tabIndex = -1;
  next.focus();
}
