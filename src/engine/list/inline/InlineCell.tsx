import Box from '@mui/material/Box';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { claimTabStop, moveCellFocus, nextEditableCell, offerFirstTabStop } from './cellKeys.ts';

/** The editor loads with the first cell edited: it brings the form's inputs and zod, which a list never needs. */
const InlineEditor = lazy(() => import('./InlineEditor.tsx').then((m) => ({ default: m.InlineEditor })));

/** How an edit ended: saved or cancelled (focus back on the cell), or Tab (focus on the next editable cell). */
export type EditEnd = 'saved' | 'cancelled' | 'next';

/**
 * One cell of a generated list (ResourceList): the column's field, in a box the keyboard can focus (the arrow
 * keys move between cells, cellKeys.ts). A cell of a field the caller may write (inlineKinds.ts) edits in place
 * on Enter, F2 or a double-click with the form's own input (InlineEditor). `source`, `label` and `sortable`
 * are read by the datagrid for the header.
 *
 * In a list the caller may write (`isInGrid`) the cells behave as a spreadsheet's: a single click selects
 * (focuses) the cell instead of opening the record, the cells hold one tab stop between them (the cell
 * focused last, at first the first one: a roving tabindex), and Enter on a cell that cannot be edited opens
 * the record, as do the row's own edit button and Enter on a focused row (rowKeys.ts). In a read-only list a
 * click on a cell opens the record as before.
 *
 * @example
 * <InlineCell source="name" label="Name" sortable resource="staff" isEditable isInGrid><TextField source="name" /></InlineCell>
 */
export function InlineCell({
  resource,
  source,
  isEditable,
  isInGrid = false,
  children,
}: {
  source: string;
  label?: string;
  sortable?: boolean;
  resource: string;
  isEditable: boolean;
  isInGrid?: boolean;
  children: ReactNode;
}) {
  const [isEditing, setIsEditing] = useState(false);
  const cell = useRef<HTMLSpanElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (isInGrid && cell.current) offerFirstTabStop(cell.current);
  }, [isInGrid]);
  useEffect(() => {
    if (!isEditing && refocus.current) {
      refocus.current = false;
      cell.current?.focus();
    }
  }, [isEditing]);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (isEditing || event.target !== event.currentTarget) return;
    if (isEditable && (event.key === 'Enter' || event.key === 'F2')) {
      event.preventDefault();
      event.stopPropagation();
      setIsEditing(true);
      return;
    }
    if (isInGrid && !isEditable && event.key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget.closest('tr')?.click();
      return;
    }
    if (moveCellFocus(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  const onClick = (event: MouseEvent<HTMLElement>) => {
    // Clicks inside the editor never open the row; in a grid a click selects the cell.
    if (isEditing) event.stopPropagation();
    else if (isInGrid) {
      event.stopPropagation();
      cell.current?.focus();
    }
  };
  const onDoubleClick = (event: MouseEvent<HTMLElement>) => {
    if (!isEditable || isEditing) return;
    event.stopPropagation();
    setIsEditing(true);
  };
  const onEnd = (end: EditEnd) => {
    const next = end === 'next' && cell.current ? nextEditableCell(cell.current) : null;
    if (next) next.focus();
    else refocus.current = true;
    setIsEditing(false);
  };
  return (
    <Box
      component="span"
      ref={cell}
      tabIndex={-1}
      data-grid-cell={source}
      data-editable={isEditable ? 'true' : undefined}
      aria-keyshortcuts={isEditable ? 'Enter F2' : undefined}
      onKeyDown={onKeyDown}
      onFocus={isInGrid ? (event) => claimTabStop(event.currentTarget) : undefined}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
      sx={{
        display: 'block',
        minHeight: '1.5em',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
      }}
    >
      {isEditing ? (
        <Suspense fallback={children}>
          <InlineEditor resource={resource} source={source} onEnd={onEnd} />
        </Suspense>
      ) : (
        children
      )}
    </Box>
  );
}
