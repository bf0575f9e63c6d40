import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { STAFF_INCLUDE, profileKey } from '../../providers/profile.ts';
import type { Profile } from '../../providers/profile.ts';
import {
  ActivityAction,
  ActivityChanges,
  ActivityOperator,
  ActivitySubject,
} from '../settings/activities/ActivityText.tsx';
import { formatDateTime } from '../../lib/localeDate.ts';
import { fetchDashboard, fetchMenus, menuLinks } from './dashboardApi.ts';

const SignInsChart = lazy(() => import('./SignInsChart.tsx').then((m) => ({ default: m.SignInsChart })));
/** Same as SignInsChart's CHART_HEIGHT (not imported, so the chart's chunk stays lazy). */
const CHART_HEIGHT = 260;

/** The figures in display order, each with the page it summarises. */
const TILES = [
  { key: 'users', to: '/settings/users' },
  { key: 'staff', to: '/settings/staff' },
  { key: 'pending_invitations', to: '/settings/staff' },
  { key: 'sign_ins_today', to: '/settings/activities' },
  { key: 'failed_jobs', to: '/settings/jobs' },
] as const;

/**
 * Staff landing page: counts, sign-ins over 30 days (chart), recent activity and the pages the user may open;
 * each figure shows only to holders of the page it summarises.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { data: profile } = useQuery<Profile>({ queryKey: profileKey(STAFF_INCLUDE), enabled: false });
  const figures = useQuery({ queryKey: ['system', 'dashboard'], queryFn: fetchDashboard });
  const menus = useQuery({ queryKey: ['system', 'dashboard', 'menus', i18n.language], queryFn: fetchMenus });
  const links = [
    ...menuLinks(menus.data ?? []).slice(0, 8),
    { path: '/account/profile', title: t('app.nav.account') },
  ];
  const counts: Record<string, number | null | undefined> = figures.data?.counts ?? {};
  // Only the figures the viewer's pages cover come back (the server leaves the others out).
  const tiles = TILES.filter(({ key }) => key in counts).map((tile) => ({
    ...tile,
    value: counts[tile.key],
  }));
  const signIns = figures.data?.sign_ins;
  const recent = figures.data?.recent_activity;
  const hasSignIns = signIns?.some((d) => d.count > 0) ?? false;
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('system.dashboard.title')}
      </Typography>
      {profile ? (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('system.dashboard.welcome', { name: profile.name || profile.username })}
        </Typography>
      ) : null}
      {figures.isError ? <Alert severity="error">{t('system.dashboard.load_error')}</Alert> : null}
      <Grid container spacing={2} sx={{ mb: 2 }} aria-busy={figures.isPending}>
        {figures.isPending
          ? [0, 1, 2, 3].map((i) => (
              <Grid key={i} size={{ xs: 6, md: 3 }}>
                <Skeleton variant="rounded" height={96} data-testid="figure-skeleton" />
              </Grid>
            ))
          : null}
        {tiles.map((tile) => (
          <Grid key={tile.key} size={{ xs: 6, md: 'grow' }}>
            <Card sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={tile.to} sx={{ height: '100%' }}>
                <CardContent>
                  <Typography color="text.secondary">{t(`system.dashboard.${tile.key}`)}</Typography>
                  <Typography
                    variant="h4"
                    component="p"
                    aria-label={t(`system.dashboard.${tile.key}`)}
                    color={tile.key === 'failed_jobs' && tile.value ? 'error' : undefined}
                  >
                    {tile.value === undefined
                      ? '…'
                      : tile.value === null
                        ? t('system.dashboard.unavailable')
                        : tile.value}
                  </Typography>
                  {tile.key === 'failed_jobs' && tile.value ? (
                    <Typography variant="body2" color="error">
                      {t('system.dashboard.see_failed_jobs')}
                    </Typography>
                  ) : null}
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={2}>
        {figures.isPending || signIns ? (
          <Grid size={{ xs: 12, md: 7 }}>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {t('system.dashboard.sign_ins_chart')}
                </Typography>
                <div data-testid="sign-ins-chart" style={{ minHeight: CHART_HEIGHT }}>
                  {figures.isPending ? (
                    <Skeleton
                      variant="rectangular"
                      height={CHART_HEIGHT}
                      aria-label={t('app.loading')}
                      data-testid="chart-skeleton"
                    />
                  ) : hasSignIns && signIns ? (
                    <Suspense
                      fallback={
                        <Skeleton variant="rectangular" height={CHART_HEIGHT} aria-label={t('app.loading')} />
                      }
                    >
                      <SignInsChart days={signIns} label={t('system.dashboard.sign_ins_series')} />
                    </Suspense>
                  ) : (
                    <Typography
                      color="text.secondary"
                      sx={{
                        height: CHART_HEIGHT,
                        display: 'flex',
                        alignItems: 'center',
                        justifyContent: 'center',
                      }}
                    >
                      {t('system.dashboard.chart_empty')}
                    </Typography>
                  )}
                </div>
              </CardContent>
            </Card>
          </Grid>
        ) : null}
        {recent ? (
          <Grid size={{ xs: 12, md: 5 }}>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {t('system.dashboard.recent_activity')}
                </Typography>
                <List dense aria-label={t('system.dashboard.recent_activity')}>
                  {recent.map((a) => (
                    <ListItem key={a.id} disableGutters alignItems="flex-start">
                      <ListItemText
                        primary={
                          <>
                            <ActivityOperator row={a} /> · <ActivityAction row={a} />
                            {a.subject_type ? (
                              <>
                                {' · '}
                                <ActivitySubject row={a} />
                              </>
                            ) : null}
                          </>
                        }
                        secondary={
                          <>
                            {formatDateTime(a.created_at, i18n.language)}
                            <ActivityChanges row={a} rows={recent} />
                          </>
                        }
                        slotProps={{ secondary: { component: 'div' } }}
                      />
                    </ListItem>
                  ))}
                  {recent.length === 0 ? (
                    <ListItem disableGutters>
                      <ListItemText secondary={t('system.dashboard.no_activity')} />
                    </ListItem>
                  ) : null}
                </List>
                <Link component={RouterLink} to="/settings/activities">
                  {t('system.dashboard.all_activity')}
                </Link>
              </CardContent>
            </Card>
          </Grid>
        ) : null}
      </Grid>
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t('system.dashboard.quick_links')}
      </Typography>
      <Grid container spacing={2}>
        {links.map((link) => (
          <Grid key={link.path} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card>
              <CardActionArea component={RouterLink} to={link.path}>
                <CardContent>
                  <Typography variant="subtitle1" component="span">
                    {link.title}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
