import Box from '@mui/material/Box';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { moveCellFocus, nextEditableCell } from './cellKeys.ts';

/** The editor loads with the first cell edited: it brings the form's inputs and zod, which a list never needs. */
const InlineEditor = lazy(() => import('./InlineEditor.tsx').then((m) => ({ default: m.InlineEditor })));

/** How long a click on an editable cell waits for a second click before it opens the row as before. */
const DOUBLE_CLICK_MS = 250;

/** How an edit ended: saved or cancelled (focus back on the cell), or Tab (focus on the next editable cell). */
export type EditEnd = 'saved' | 'cancelled' | 'next';

/**
 * One cell of a generated list (ResourceList): the column's field, in a box the keyboard can focus (the arrow
 * keys move between cells, cellKeys.ts). A cell of a field the caller may write (inlineKinds.ts) edits in place
 * on Enter, F2 or a double-click with the form's own input (InlineEditor); a single click still opens the row,
 * once no second click came. `source`, `label` and `sortable` are read by the datagrid for the header.
 *
 * @example
 * <InlineCell source="name" label="Name" sortable resource="staff" isEditable><TextField source="name" /></InlineCell>
 */
export function InlineCell({
  resource,
  source,
  isEditable,
  children,
}: {
  source: string;
  label?: string;
  sortable?: boolean;
  resource: string;
  isEditable: boolean;
  children: ReactNode;
}) {
  const [isEditing, setIsEditing] = useState(false);
  const cell = useRef<HTMLSpanElement>(null);
  const clickTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refocus = useRef(false);
  useEffect(() => () => clearTimeout(clickTimer.current), []);
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
    if (moveCellFocus(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  const onClick = (event: MouseEvent<HTMLElement>) => {
    // Clicks inside the editor never open the row.
    if (isEditing || !isEditable) {
      if (isEditing) event.stopPropagation();
      return;
    }
    event.stopPropagation();
    const row = event.currentTarget.closest('tr');
    clearTimeout(clickTimer.current);
    if (event.detail > 1 || !row) return;
    clickTimer.current = setTimeout(() => row.click(), DOUBLE_CLICK_MS);
  };
  const onDoubleClick = (event: MouseEvent<HTMLElement>) => {
    if (!isEditable || isEditing) return;
    event.stopPropagation();
    clearTimeout(clickTimer.current);
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
