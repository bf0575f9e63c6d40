import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useId, useMemo, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ancestorMap,
  descendantsOf,
  permissionNodes,
  toggle,
  type PermissionNode,
} from './permissionTree.ts';

/**
 * The role editor's permission tree: every group, page and the actions each page declares (schemas/
 * permissions.ts), each with a checkbox. Checking a child checks its parents; unchecking a parent clears its
 * children; a parent with only some children checked shows as half-checked (`aria-checked="mixed"`), even
 * though its own name is saved (a page needs its group to show in the menu, the group grants no page). A
 * dangerous name (one that reaches as far as an administrator's account) carries a warning chip and says why.
 * `belowPage` adds something under a page's actions (the role editor: the page's field access table).
 *
 * @example
 * <PermissionTree value={menuIds} onChange={setMenuIds} />
 */
export function PermissionTree({
  value,
  onChange,
  disabled = false,
  belowPage,
}: {
  value: readonly string[];
  onChange: (next: string[]) => void;
  disabled?: boolean;
  belowPage?: (page: PermissionNode) => ReactNode;
}) {
  const nodes = useMemo(() => permissionNodes(), []);
  const ancestors = useMemo(() => ancestorMap(nodes), [nodes]);
  const selected = new Set(value);
  const render = (node: PermissionNode, depth: number) => {
    const below = descendantsOf(node);
    const held = below.filter((name) => selected.has(name)).length;
    return (
      <Box key={node.name} sx={{ pl: depth * 3 }}>
        <NodeCheckbox
          node={node}
          checked={selected.has(node.name)}
          indeterminate={held > 0 && held < below.length}
          disabled={disabled}
          onToggle={() => onChange(toggle(value, node, ancestors))}
        />
        {node.children.length > 0 && depth >= 1 ? (
          <>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', pl: 3 }}>
              {node.children.map((child) => (
                <NodeCheckbox
                  key={child.name}
                  node={child}
                  page={node}
                  checked={selected.has(child.name)}
                  indeterminate={false}
                  disabled={disabled}
                  onToggle={() => onChange(toggle(value, child, ancestors))}
                />
              ))}
            </Box>
            {belowPage?.(node)}
          </>
        ) : (
          node.children.map((child) => render(child, depth + 1))
        )}
      </Box>
    );
  };
  return (
    <Box role="group" aria-label="permissions">
      {nodes.map((node) => render(node, 0))}
    </Box>
  );
}

/** Actions are titled by the verb alone ("Create"): their accessible name says whose ("Staff · Create"). */
const ACTION_TITLE = 'settings.people.roles.actions.';

function NodeCheckbox({
  node,
  page,
  checked,
  indeterminate,
  disabled,
  onToggle,
}: {
  node: PermissionNode;
  /** The page an action or grant belongs to. */
  page?: PermissionNode;
  checked: boolean;
  indeterminate: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  // The name is the label people read, never the permission key (kept in data-permission for tools and tests).
  const name =
    page && node.title.startsWith(ACTION_TITLE) ? `${t(page.title)} · ${t(node.title)}` : t(node.title);
  const box = (
    <FormControlLabel
      control={
        <Checkbox
          size="small"
          checked={checked}
          indeterminate={indeterminate}
          disabled={disabled}
          onChange={onToggle}
          // The DOM property too, so assistive technology and the browser report the box as mixed.
          inputRef={(el: HTMLInputElement | null) => {
            if (el) el.indeterminate = indeterminate;
          }}
          inputProps={
            {
              'aria-label': name,
              'data-permission': node.name,
              ...(indeterminate ? { 'aria-checked': 'mixed' as const } : {}),
              ...(node.dangerous ? { 'aria-describedby': hintId } : {}),
            } as InputHTMLAttributes<HTMLInputElement>
          }
        />
      }
      label={t(node.title)}
    />
  );
  if (!node.dangerous) return box;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, flexBasis: '100%' }}>
      {box}
      {/* The text keeps the default colours (warning orange on white is too faint for text); the icon warns. */}
      <Chip
        size="small"
        variant="outlined"
        icon={<WarningAmberIcon sx={{ '&&': { color: 'warning.main' } }} />}
        label={t('settings.people.roles.dangerous')}
      />
      <Box component="span" id={hintId} sx={{ typography: 'caption', color: 'text.secondary' }}>
        {t('settings.people.roles.dangerous_hint')}
      </Box>
    </Box>
  );
}
