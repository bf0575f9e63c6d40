import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  FieldTitle,
  InputHelperText,
  useGetList,
  useGetManyAggregate,
  useInput,
  useTranslate,
} from 'react-admin';
import type { TreeOptions } from '../../data/registry.ts';
import { ancestorsOf, buildTree, findNode, visibleRows } from './tree.ts';

/**
 * The tree itself (rows, keys, type-ahead) loads when the picker is first pointed at, focused or opened: a
 * list shows the picker's field as a filter and needs no tree to paint (issue 37 item 6).
 */
const loadTreeList = () => import('./TreeList.tsx');
const TreeList = lazy(() => loadTreeList().then((m) => ({ default: m.TreeList })));
const prefetchTreeList = () => void loadTreeList().catch(() => undefined);

/**
 * The input of a reference to a tree resource (one with a `parent_id` field: departments, or any resource
 * declared so): a field that opens the records as a tree (open/close branches, indentation, a search that
 * keeps the ancestors of what it finds, arrows, Enter and type-ahead; TreeList.tsx). The records are the
 * target's list as the caller may read it (its data scope), so a record whose parent is out of scope is a
 * root. The value on the wire stays the record's id. Forms and list filters both use it (reference.tsx).
 *
 * @example
 * <TreePickerInput source="department_id" resource="staff" target="departments" tree={treeOptionsOf(departments)!} />
 */
export function TreePickerInput({
  source,
  resource,
  label,
  target,
  tree,
  isRequired = false,
  isFilter = false,
}: {
  source: string;
  /** The form's resource (labels `resources.<resource>.fields.<source>`). */
  resource: string;
  label?: string;
  /** The tree resource's name. */
  target: string;
  tree: TreeOptions;
  isRequired?: boolean;
  isFilter?: boolean;
}) {
  const translate = useTranslate();
  const { id, field, fieldState, isRequired: required } = useInput({ source, resource, isRequired });
  const value =
    field.value === undefined || field.value === null || field.value === '' ? null : String(field.value);
  const { labelField, parentField, sort, perPage } = tree;
  const { data: records, isPending } = useGetList(target, { pagination: { page: 1, perPage }, sort });
  const roots = useMemo(
    () => buildTree(records ?? [], { parentField, labelField }),
    [records, parentField, labelField],
  );
  const chosen = value ? findNode(roots, value) : undefined;
  // The chosen record outside the loaded tree (a page past the list's largest): named by its own read.
  const { data: outside } = useGetManyAggregate(
    target,
    { ids: value ? [value] : [] },
    { enabled: Boolean(value) && !isPending && !chosen },
  );
  const shown = chosen?.label ?? (outside?.[0] ? String(outside[0][labelField] ?? value) : (value ?? ''));

  const anchor = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const focusOnOpen = useRef(false);
  const [isOpen, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [activeId, setActiveId] = useState<string | null>(null);
  const treeId = useId();
  const rows = visibleRows(roots, expanded, query);
  const title = translate(label ?? `resources.${resource}.fields.${source}`, { _: label ?? source });

  const open = () => {
    setQuery('');
    setExpanded(new Set(value ? ancestorsOf(roots, value) : []));
    setActiveId(value);
    focusOnOpen.current = true;
    setOpen(true);
  };
  const choose = (next: string | null) => {
    field.onChange(next ?? '');
    field.onBlur();
    setOpen(false);
  };
  const onFieldKeys = (event: KeyboardEvent) => {
    if (isOpen || !['Enter', ' ', 'ArrowDown'].includes(event.key)) return;
    event.preventDefault();
    open();
  };
  const onSearchKeys = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      listRef.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
    } else if (event.key === 'Enter' && rows[0]) {
      event.preventDefault();
      // Enter in the search chooses the first record it finds (itself or below an ancestor it keeps).
      const match = rows.find((row) =>
        row.node.label.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase()),
      );
      choose((match ?? rows[0]).node.id);
    }
  };

  return (
    <>
      <TextField
        ref={anchor}
        id={id}
        name={field.name}
        label={
          <FieldTitle label={title} source={source} resource={resource} isRequired={required && !isFilter} />
        }
        value={shown}
        size="small"
        error={fieldState.invalid}
        helperText={isFilter ? false : <InputHelperText error={fieldState.error?.message} />}
        onClick={open}
        onKeyDown={onFieldKeys}
        onMouseEnter={prefetchTreeList}
        onFocus={prefetchTreeList}
        sx={{ minWidth: 200 }}
        slotProps={{
          htmlInput: {
            readOnly: true,
            role: 'combobox',
            'aria-haspopup': 'tree',
            'aria-expanded': isOpen,
            'aria-controls': isOpen ? treeId : undefined,
            style: { cursor: 'pointer' },
          },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <ArrowDropDownIcon />
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover
        open={isOpen}
        anchorEl={anchor.current}
        onClose={() => setOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{
          paper: {
            sx: { width: 360, maxWidth: 'calc(100vw - 32px)', p: 1 },
            role: 'dialog',
            'aria-label': title,
          },
        }}
      >
        <TextField
          type="search"
          size="small"
          fullWidth
          label={translate('engine.tree_picker.search')}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActiveId(null);
          }}
          onKeyDown={onSearchKeys}
          sx={{ mb: 1 }}
        />
        <Box id={treeId}>
          {rows.length ? (
            <Suspense
              fallback={
                <Typography color="text.secondary" sx={{ p: 1 }} role="status">
                  {translate('ra.page.loading')}
                </Typography>
              }
            >
              <TreeList
                rows={rows}
                label={title}
                activeId={activeId}
                selectedId={value}
                onActivate={setActiveId}
                onToggle={(nodeId, isExpanding) =>
                  setExpanded((current) => {
                    const next = new Set(current);
                    if (isExpanding) next.add(nodeId);
                    else next.delete(nodeId);
                    return next;
                  })
                }
                onChoose={choose}
                focusOnOpen={focusOnOpen}
                listRef={listRef}
              />
            </Suspense>
          ) : (
            <Typography color="text.secondary" sx={{ p: 1 }} role="status">
              {translate(isPending ? 'ra.page.loading' : 'engine.tree_picker.no_match')}
            </Typography>
          )}
        </Box>
        {value && (isFilter || !required) ? (
          <Button size="small" onClick={() => choose(null)} sx={{ mt: 1 }}>
            {translate('engine.tree_picker.clear')}
          </Button>
        ) : null}
      </Popover>
    </>
  );
}
