import type { KeyboardEvent } from 'react';

const CELL = '[data-grid-cell]';

/**
 * The arrow keys on a focused cell of a list (InlineCell): left and right move along the row, up and down to
 * the same column of the row above or below. Returns whether the focus moved (the caller then stops the key).
 */
export function moveCellFocus(event: KeyboardEvent<HTMLElement>): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  const cell = event.currentTarget;
  const row = cell.closest('tr');
  const table = cell.closest('table');
  if (!row || !table) return false;
  const cells = Array.from(row.querySelectorAll<HTMLElement>(CELL));
  const column = cells.indexOf(cell);
  let target: HTMLElement | undefined;
  if (event.key === 'ArrowLeft') target = cells[column - 1];
  else if (event.key === 'ArrowRight') target = cells[column + 1];
  else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    const rows = Array.from(table.querySelectorAll<HTMLTableRowElement>('tbody tr'));
    const other = rows[rows.indexOf(row) + (event.key === 'ArrowDown' ? 1 : -1)];
    target = other ? Array.from(other.querySelectorAll<HTMLElement>(CELL))[column] : undefined;
  } else return false;
  if (!target) return false;
  target.focus();
  return true;
}

/** The editable cell after `cell`: later in its row, else the first one of a following row. */
export function nextEditableCell(cell: HTMLElement): HTMLElement | null {
  const table = cell.closest('table');
  if (!table) return null;
  const editable = Array.from(table.querySelectorAll<HTMLElement>(`tbody ${CELL}[data-editable]`));
  return editable[editable.indexOf(cell) + 1] ?? null;
}

/** The first cell of a row, where ArrowRight on a focused row goes (rowKeys.ts). */
export function firstCellOf(row: HTMLElement): HTMLElement | null {
  return row.querySelector<HTMLElement>(CELL);
}

/**
 * The roving tabindex of a grid's cells (InlineCell): the focused cell becomes the cells' one tab stop, so
 * Tab leaves the grid and Shift+Tab comes back to the cell left. The attribute is set on the elements
 * themselves: React renders every cell with -1 and never rewrites it.
 */
export function claimTabStop(cell: HTMLElement): void {
  const table = cell.closest('table');
  if (!table || cell.tabIndex === 0) return;
  for (const other of table.querySelectorAll<HTMLElement>(`tbody ${CELL}[tabindex="0"]`)) other.tabIndex = -1;
  cell.tabIndex = 0;
}

/** Makes `cell` the tab stop when it is the grid's first cell and no cell holds the tab stop yet. */
export function offerFirstTabStop(cell: HTMLElement): void {
  const table = cell.closest('table');
  if (!table || table.querySelector(`tbody ${CELL}[tabindex="0"]`)) return;
  if (table.querySelector(`tbody ${CELL}`) === cell) cell.tabIndex = 0;
}
