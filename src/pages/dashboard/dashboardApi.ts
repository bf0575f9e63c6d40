import type { ActivityRow } from '../settings/activities/describe.ts';
import { httpClient } from '../../providers/httpClient.ts';

/** `GET v1/system/dashboard`: only the figures whose pages the viewer holds are present. */
export interface DashboardData {
  counts: {
    users?: number;
    staff?: number;
    pending_invitations?: number;
    sign_ins_today?: number;
    failed_jobs?: number | null;
  };
  sign_ins?: { day: string; count: number }[];
  /** As the activity log sends them (changes, subject representation, names of referenced records). */
  recent_activity?: (ActivityRow & { created_at: string })[];
}

/** A settings menu item as `GET v1/system/menus` returns it (already filtered by permission). */
export interface WireMenuItem {
  name: string | null;
  title: string;
  path: string | null;
  disabled: boolean;
  children?: WireMenuItem[];
}

export const fetchDashboard = () => httpClient<DashboardData>('v1/system/dashboard');
export const fetchMenus = () => httpClient<WireMenuItem[]>('v1/system/menus');

/** The pages of a menu tree the user may open, in menu order. */
export function menuLinks(items: readonly WireMenuItem[]): { path: string; title: string }[] {
  return items.flatMap((item) => [
    ...(item.path && !item.disabled && !item.children?.length
      ? [{ path: item.path, title: item.title }]
      : []),
    ...menuLinks(item.children ?? []),
  ]);
}
