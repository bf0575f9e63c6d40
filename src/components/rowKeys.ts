import type { KeyboardEvent } from 'react';

/** Where the arrow keys keep their own meaning: text, menus, lists of options, sliders, trees. */
const OWN_KEYS =
  'input:not([type="checkbox"]), textarea, select, [role="combobox"], [role="listbox"], [role="menu"], [role="slider"], [role="tree"], [role="dialog"]';

/** A row outside a table (a phone card, a list item) that the arrow keys move through. */
export const KEY_ROW = 'data-key-row';
/** The control Enter presses on a focused row that has no click of its own (its link or first action). */
export const ROW_PRIMARY = 'data-row-primary';

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index) => index + 1,
  ArrowUp: (index) => (index > 0 ? index - 1 : -1),
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * The keyboard in a list, one mechanism for the generated lists and the hand-written tables and cards:
 * ArrowDown and ArrowUp move the focus from row to row (from the header's controls, or the table's scrolling
 * box, down into the first row), Home and End to the first and last row, Enter on a focused row opens it: its
 * `data-row-primary` control when it has one (a hand-written row's link or main action), else as a click
 * would (a generated row's link: edit or show). With `intoRow`, ArrowRight on a focused table row moves to
 * the element it names (the generated lists: the row's first cell, src/engine/list/rowKeys.ts).
 * Rows are a table's body rows, or elements marked `data-key-row` (cards, list items). Put the handler on an
 * element around the rows, or wrap them in `<KeyRows>` (KeyRows.tsx) or `<TableScroll>`.
 *
 * @example
 * const onRowKeys = rowKeyHandler(); <Box sx={{ display: 'contents' }} onKeyDown={onRowKeys}><Table /></Box>
 */
export function rowKeyHandler({ intoRow }: { intoRow?: (row: HTMLElement) => HTMLElement | null } = {}): (
  event: KeyboardEvent<HTMLElement>,
) => void {
  return (event) => onKeys(event, intoRow);
}

function onKeys(
  event: KeyboardEvent<HTMLElement>,
  intoRow: ((row: HTMLElement) => HTMLElement | null) | undefined,
): void {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target as HTMLElement;
  if (target.closest(OWN_KEYS)) return;
  const table = target.closest('table');
  const row = target.closest<HTMLElement>(`tbody tr, [${KEY_ROW}]`);
  const isOnRow = row !== null && target === row;
  if (event.key === 'Enter') {
    if (!row || !isOnRow) return;
    event.preventDefault();
    (row.querySelector<HTMLElement>(`[${ROW_PRIMARY}]`) ?? row).click();
    return;
  }
  if (event.key === 'ArrowRight' && row && isOnRow && table && intoRow) {
    const cell = intoRow(row);
    if (!cell) return;
    event.preventDefault();
    cell.focus();
    return;
  }
  const move = MOVES[event.key];
  if (!move) return;
  // Home and End keep their meaning inside a row's controls; on a row or the table's box they jump.
  if ((event.key === 'Home' || event.key === 'End') && !isOnRow && target !== event.currentTarget) return;
  const rows = rowsAround(table, event.currentTarget);
  const next = rows[move(row ? rows.indexOf(row) : -1, rows.length)];
  if (!next) return;
  event.preventDefault();
  next.tabIndex = -1;
  next.focus();
}

/** The rows the keys move through: the table's own body rows, else those inside the handler's element. */
function rowsAround(table: HTMLTableElement | null, around: HTMLElement): HTMLElement[] {
  if (table) return Array.from(table.querySelectorAll<HTMLElement>(':scope > tbody > tr'));
  return Array.from(around.querySelectorAll<HTMLElement>(`table > tbody > tr, [${KEY_ROW}]`));
}
