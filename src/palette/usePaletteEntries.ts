import { useMemo } from 'react';
import { useLocaleState, useLogout } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LOCALES } from '../../locales/languages.ts';
import { filterMenu, settingsMenu, visibleMenu, type MenuItem } from '../../schemas/permissions.ts';
import { registeredDescriptors } from '../engine/data/registry.ts';
import { registeredPages } from '../engine/data/pages.ts';
import { hasPermission } from '../providers/permissions.ts';
import { usePermissionList } from '../providers/useCan.ts';
import { useSettingsMenu } from '../providers/useSettingsMenu.ts';
import { useThemeMode } from '../theme/preferences.ts';

/** One line of the palette: a page, an action or a record; `run` does it (the palette closes first). */
export interface PaletteEntry {
  id: string;
  group: 'pages' | 'actions' | 'records';
  label: string;
  sublabel?: string;
  run: () => void;
}

/**
 * The palette's pages (every menu entry the caller may open, the dashboard and the account) and actions
 * ("New <resource>" for each resource the caller may create, switch language, switch theme, sign out), in
 * the current language.
 *
 * @example
 * const entries = usePaletteEntries();
 */
export function usePaletteEntries(): PaletteEntry[] {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  const [locale, setLocale] = useLocaleState();
  const [mode, setMode] = useThemeMode();
  const { permissions } = usePermissionList();
  const server = useSettingsMenu();
  const language = i18n.language;
  return useMemo(() => {
    const isStaff = permissions.length > 0;
    const menu =
      server.items ??
      filterMenu(visibleMenu(settingsMenu(registeredDescriptors, undefined, registeredPages)), (name) =>
        hasPermission(permissions, name),
      );
    const pages: PaletteEntry[] = [
      ...(isStaff ? [{ path: '/dashboard', title: 'app.nav.dashboard' }] : []),
      ...leaves(menu),
      { path: '/account', title: 'app.account.title' },
    ].map(({ path, title }) => ({
      id: `page:${path}`,
      group: 'pages',
      label: t(title),
      run: () => navigate(path),
    }));
    const creatable = registeredDescriptors.filter(
      (r) =>
        r.options.menu !== false &&
        (!r.options.operations || r.options.operations.includes('create')) &&
        hasPermission(permissions, `${r.permission}.create`),
    );
    const other = LOCALES.find((l) => l !== locale) ?? LOCALES[0];
    const actions: PaletteEntry[] = [
      ...creatable.map((r) => ({
        id: `new:${r.name}`,
        group: 'actions' as const,
        label: t('engine.palette.new', { name: t(`resources.${r.name}.name_one`).toLocaleLowerCase() }),
        run: () => navigate(`/settings/${r.name}/create`),
      })),
      {
        id: 'language',
        group: 'actions',
        label: t('engine.palette.language'),
        run: () => void setLocale(other),
      },
      {
        id: 'theme',
        group: 'actions',
        label: t('engine.palette.theme'),
        run: () => setMode(mode === 'dark' ? 'light' : 'dark'),
      },
      { id: 'logout', group: 'actions', label: t('engine.palette.logout'), run: () => void logout() },
    ];
    return [...pages, ...actions];
    // `language`: the labels follow a language switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, language, navigate, logout, locale, setLocale, mode, setMode, permissions, server.items]);
}

/** The menu's pages (entries with a path, not disabled), groups flattened. */
function leaves(items: readonly MenuItem[]): { path: string; title: string }[] {
  return items.flatMap((item) => [
    ...(item.path && !item.disabled && !item.hidden ? [{ path: item.path, title: item.title }] : []),
    ...leaves(item.children ?? []),
  ]);
}
