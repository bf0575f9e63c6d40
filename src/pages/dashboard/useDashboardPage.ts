import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { STAFF_INCLUDE, profileKey, type Profile } from '../../providers/profile.ts';
import { fetchDashboard, fetchMenus, menuLinks } from './dashboardApi.ts';

/** The figures in display order, each with the page it summarises. */
const TILES = [
  { key: 'users', to: '/settings/users' },
  { key: 'staff', to: '/settings/staff' },
  { key: 'pending_invitations', to: '/settings/staff' },
  { key: 'sign_ins_today', to: '/settings/activities' },
  { key: 'failed_jobs', to: '/settings/jobs' },
] as const;

export type DashboardTile = (typeof TILES)[number] & {
  /** The count; null when the server could not read it, undefined while it has not come. */
  value: number | null | undefined;
};

/**
 * Everything the dashboard loads (the controller; DashboardPage only renders): the viewer's profile (from
 * the cache the route guard filled), the figures, sign-ins and recent activity, and the quick links (the
 * first pages of the viewer's menu, then their own account).
 *
 * @example
 * const dashboard = useDashboardPage(); dashboard.tiles.map((tile) => tile.value);
 */
export function useDashboardPage() {
  const { t, i18n } = useTranslation();
  const { data: profile } = useQuery<Profile>({ queryKey: profileKey(STAFF_INCLUDE), enabled: false });
  const figures = useQuery({ queryKey: ['system', 'dashboard'], queryFn: fetchDashboard });
  const menus = useQuery({ queryKey: ['system', 'dashboard', 'menus', i18n.language], queryFn: fetchMenus });
  const counts: Record<string, number | null | undefined> = figures.data?.counts ?? {};
  const signIns = figures.data?.sign_ins;
  return {
    /** Who to welcome, once the profile is known. */
    name: profile ? profile.name || profile.username : null,
    isPending: figures.isPending,
    isError: figures.isError,
    // Only the figures the viewer's pages cover come back (the server leaves the others out).
    tiles: TILES.filter(({ key }) => key in counts).map((tile): DashboardTile => ({
      ...tile,
      value: counts[tile.key],
    })),
    signIns,
    hasSignIns: signIns?.some((d) => d.count > 0) ?? false,
    recent: figures.data?.recent_activity,
    links: [
      ...menuLinks(menus.data ?? []).slice(0, 8),
      { path: '/account/profile', title: t('app.nav.account') },
    ],
  };
}
