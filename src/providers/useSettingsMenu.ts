import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MenuItem } from '../../schemas/permissions.ts';
import { httpClient } from './httpClient.ts';

/** A menu item as `GET v1/system/menus` sends it. */
export interface WireMenuItem {
  name: string | null;
  title: string;
  title_key?: string;
  icon: string | null;
  path: string | null;
  disabled?: boolean;
  children?: WireMenuItem[];
}

/** Cached under `profile`, so signing in or out (which clears the profile queries) refetches it. */
export const MENUS_KEY = ['profile', 'menus'] as const;

/**
 * The settings menu tree from the server, already filtered by the caller's permissions (spec 6), with
 * titles as locale keys when the server sends them. `items` is undefined until it arrives or if it fails
 * (the caller then falls back to the static tree filtered on the client, which gives the same result).
 *
 * @example
 * const { items } = useSettingsMenu();
 */
export function useSettingsMenu(): { items: MenuItem[] | undefined; isPending: boolean } {
  const { i18n } = useTranslation();
  const { data, isPending } = useQuery({
    queryKey: [...MENUS_KEY, i18n.language],
    queryFn: () => httpClient<WireMenuItem[]>('v1/system/menus'),
    staleTime: 60_000,
    retry: false,
  });
  return { items: data ? data.map(fromWire) : undefined, isPending };
}

export function fromWire(item: WireMenuItem): MenuItem {
  return {
    ...(item.name ? { name: item.name } : {}),
    title: item.title_key ?? item.title,
    ...(item.icon ? { icon: item.icon } : {}),
    ...(item.path ? { path: item.path } : {}),
    ...(item.disabled ? { disabled: true } : {}),
    ...(item.children ? { children: item.children.map(fromWire) } : {}),
  };
}
