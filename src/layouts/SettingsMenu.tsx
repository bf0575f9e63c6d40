import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Divider from '@mui/material/Divider';
import Tooltip from '@mui/material/Tooltip';
import { Fragment, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { filterMenu, settingsMenu, visibleMenu } from '../../schemas/permissions.ts';
import { registeredDescriptors as resources } from '../engine/data/registry.ts';
import { registeredPages } from '../engine/data/pages.ts';
import type { MenuItem } from '../../schemas/permissions.ts';
import { useSettingsMenu } from '../providers/useSettingsMenu.ts';
import { hasPermission } from '../providers/permissions.ts';
import { usePermissionList } from '../providers/useCan.ts';
import { activeMenuPath } from './activeMenuPath.ts';
import { menuIcon } from './menuIcons.tsx';
import { PinnedViews } from '../engine/views/PinnedViews.tsx';

export interface SettingsMenuProps {
  collapsed: boolean;
  /**
   * Menu tree to show; defaults to `GET v1/system/menus` (until it answers, the built-in tree plus a page per
   * registered resource, filtered here).
   */
  items?: readonly MenuItem[];
  onNavigate?: () => void;
}

/** The settings side menu, grouped and filtered by the user's permissions (spec 6). */
export function SettingsMenu({ collapsed, items, onNavigate }: SettingsMenuProps) {
  const { t } = useTranslation();
  const { permissions } = usePermissionList();
  const server = useSettingsMenu();
  const { pathname } = useLocation();
  const active = activeMenuPath(pathname);
  const groups = useMemo(
    () =>
      // The server's tree is already filtered; the static one is filtered here with the same rule.
      !items && server.items
        ? server.items
        : filterMenu(visibleMenu(items ?? settingsMenu(resources, undefined, registeredPages)), (name) =>
            hasPermission(permissions, name),
          ),
    [items, server.items, permissions],
  );

  return (
    <List dense disablePadding>
      {groups.map((group, index) => {
        const children = group.children ?? [];
        if (group.children && children.length === 0) return null;
        const entries = group.children ? children : [group];
        return (
          <Fragment key={group.name ?? group.title}>
            {index > 0 ? <Divider component="li" aria-hidden="true" /> : null}
            {collapsed || !group.children ? null : (
              <ListSubheader disableSticky sx={{ bgcolor: 'transparent' }}>
                {t(group.title)}
              </ListSubheader>
            )}
            {entries.map((item) => (
              <Fragment key={item.name ?? item.title}>
                <MenuEntry
                  item={item}
                  label={t(item.title)}
                  collapsed={collapsed}
                  isActive={item.path === active}
                  onNavigate={onNavigate}
                />
                {/* The user's pinned saved views of this page, with their live counts (engine/views). */}
                {collapsed ? null : (
                  <PinnedViews path={item.path ?? undefined} page={t(item.title)} onNavigate={onNavigate} />
                )}
              </Fragment>
            ))}
          </Fragment>
        );
      })}
    </List>
  );
}

function MenuEntry({
  item,
  label,
  collapsed,
  isActive,
  onNavigate,
}: {
  item: MenuItem;
  label: string;
  collapsed: boolean;
  isActive: boolean;
  onNavigate?: () => void;
}) {
  const Icon = menuIcon(item.icon);
  const button = (
    <ListItemButton
      component={RouterLink}
      to={item.path ?? '/settings'}
      selected={isActive}
      disabled={item.disabled}
      aria-current={isActive ? 'page' : undefined}
      aria-label={collapsed ? label : undefined}
      onClick={onNavigate}
      sx={{ minHeight: 44, px: collapsed ? 2.5 : 2 }}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 40 }}>
        <Icon fontSize="small" />
      </ListItemIcon>
      {collapsed ? null : <ListItemText primary={label} />}
    </ListItemButton>
  );
  return (
    <li>
      {collapsed ? (
        <Tooltip title={label} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </li>
  );
}
