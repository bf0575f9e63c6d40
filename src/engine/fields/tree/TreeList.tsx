import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { typeAhead, type TreeRow } from './tree.ts';

/** How long typed letters add up to one type-ahead prefix. */
const TYPE_AHEAD_MS = 700;

/**
 * The tree of a picker (WAI-ARIA tree, one focusable item at a time): Up/Down move, Right opens a branch or
 * goes to its first child, Left closes it or goes to the parent, Home/End, Enter or Space chooses, letters
 * jump to the next item starting with them. A click chooses; a click on the arrow opens or closes.
 */
export function TreeList({
  rows,
  label,
  activeId,
  selectedId,
  onActivate,
  onToggle,
  onChoose,
  focusOnOpen,
  listRef,
}: {
  rows: readonly TreeRow[];
  /** Set when the picker opens: the first render with items takes the focus (once). */
  focusOnOpen: RefObject<boolean>;
  /** The list element, for the search field's ArrowDown. */
  listRef: RefObject<HTMLUListElement | null>;
  label: string;
  activeId: string | null;
  selectedId: string | null;
  onActivate: (id: string) => void;
  onToggle: (id: string, isOpen: boolean) => void;
  onChoose: (id: string) => void;
}) {
  const typed = useRef({ text: '', at: 0 });
  const active = rows.find((row) => row.node.id === activeId) ?? rows[0];
  const index = active ? rows.indexOf(active) : -1;

  useEffect(() => {
    // Opened: the focus goes to the chosen item (or the first), where the keys work at once.
    if (!focusOnOpen.current) return;
    focusOnOpen.current = false;
    listRef.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
  }, [focusOnOpen, listRef]);

  useEffect(() => {
    // The focus follows the active item while it is inside the tree (not while the search field has it).
    const list = listRef.current;
    if (!list || !activeId || !list.contains(document.activeElement)) return;
    Array.from(list.querySelectorAll<HTMLElement>('[data-id]'))
      .find((item) => item.dataset.id === activeId)
      ?.focus();
  }, [activeId, listRef]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (!active || event.altKey || event.ctrlKey || event.metaKey) return;
    const go = (to: number) => {
      const row = rows[to];
      if (row) onActivate(row.node.id);
    };
    const { node, hasChildren, isExpanded } = active;
    const keys: Record<string, () => void> = {
      ArrowDown: () => go(index + 1),
      ArrowUp: () => go(index - 1),
      Home: () => go(0),
      End: () => go(rows.length - 1),
      ArrowRight: () => (hasChildren && !isExpanded ? onToggle(node.id, true) : isExpanded && go(index + 1)),
      ArrowLeft: () => {
        if (isExpanded) return onToggle(node.id, false);
        const parent = rows.find((row) => row.node.id === node.parentId);
        if (parent) onActivate(parent.node.id);
      },
      Enter: () => onChoose(node.id),
      ' ': () => onChoose(node.id),
    };
    const now = performance.now();
    const isTyping = now - typed.current.at < TYPE_AHEAD_MS;
    // A space while typing a name is part of the name, not a choice.
    const action = event.key === ' ' && isTyping ? undefined : keys[event.key];
    if (action) {
      typed.current = { text: '', at: 0 };
      event.preventDefault();
      event.stopPropagation();
      action();
      return;
    }
    if (event.key.length !== 1) return;
    typed.current = {
      text: isTyping ? typed.current.text + event.key : event.key,
      at: now,
    };
    const found = typeAhead(rows, index, typed.current.text);
    event.preventDefault();
    if (found >= 0) go(found);
  };

  return (
    <Box
      component="ul"
      role="tree"
      aria-label={label}
      ref={listRef}
      onKeyDown={onKeyDown}
      sx={{ listStyle: 'none', m: 0, p: 0, overflowY: 'auto', maxHeight: 320 }}
    >
      {rows.map((row, i) => {
        const { node, depth, hasChildren, isExpanded } = row;
        const isActive = row === active;
        return (
          <Box
            component="li"
            key={node.id}
            role="treeitem"
            data-id={node.id}
            aria-level={depth + 1}
            aria-setsize={rows.filter((r) => r.node.parentId === node.parentId && r.depth === depth).length}
            aria-posinset={
              rows.slice(0, i + 1).filter((r) => r.node.parentId === node.parentId && r.depth === depth)
                .length
            }
            aria-expanded={hasChildren ? isExpanded : undefined}
            aria-selected={node.id === selectedId}
            tabIndex={isActive ? 0 : -1}
            onClick={() => onChoose(node.id)}
            onFocus={() => (isActive ? undefined : onActivate(node.id))}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              py: 0.75,
              pr: 1.5,
              pl: 1 + depth * 2.5,
              cursor: 'pointer',
              borderRadius: 1,
              bgcolor: node.id === selectedId ? 'action.selected' : undefined,
              '&:hover': { bgcolor: 'action.hover' },
              '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
            }}
          >
            <Box
              component="span"
              aria-hidden
              onClick={(event) => {
                if (!hasChildren) return;
                event.stopPropagation();
                onToggle(node.id, !isExpanded);
              }}
              sx={{ display: 'inline-flex', width: 24, justifyContent: 'center', color: 'text.secondary' }}
            >
              {hasChildren ? (
                isExpanded ? (
                  <ExpandMoreIcon fontSize="small" />
                ) : (
                  <ChevronRightIcon fontSize="small" />
                )
              ) : null}
            </Box>
            <span>{node.label}</span>
          </Box>
        );
      })}
    </Box>
  );
}
