import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
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
import { fetchDashboard, fetchMenus, menuLinks } from './dashboardApi.ts';

const SignInsChart = lazy(() => import('./SignInsChart.tsx').then((m) => ({ default: m.SignInsChart })));

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
  const counts = figures.data?.counts ?? {};
  // Only the figures the viewer's pages cover come back (the server leaves the others out).
  const tiles = (['users', 'staff', 'sign_ins_today', 'failed_jobs'] as const)
    .filter((key) => key in counts)
    .map((key) => ({ key, value: counts[key] }));
  const signIns = figures.data?.sign_ins;
  const recent = figures.data?.recent_activity;
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
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {tiles.map((tile) => (
          <Grid key={tile.key} size={{ xs: 6, md: 3 }}>
            <Card>
              <CardContent>
                <Typography color="text.secondary">{t(`system.dashboard.${tile.key}`)}</Typography>
                <Typography variant="h4" component="p" aria-label={t(`system.dashboard.${tile.key}`)}>
                  {tile.value === undefined
                    ? '…'
                    : tile.value === null
                      ? t('system.dashboard.unavailable')
                      : tile.value}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={2}>
        {signIns ? (
          <Grid size={{ xs: 12, md: 8 }}>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {t('system.dashboard.sign_ins_chart')}
                </Typography>
                <div data-testid="sign-ins-chart" style={{ minHeight: 260 }}>
                  <Suspense fallback={<CircularProgress aria-label={t('system.dashboard.sign_ins_chart')} />}>
                    <SignInsChart days={signIns} label={t('system.dashboard.sign_ins_series')} />
                  </Suspense>
                </div>
              </CardContent>
            </Card>
          </Grid>
        ) : null}
        {recent ? (
          <Grid size={{ xs: 12, md: 4 }}>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {t('system.dashboard.recent_activity')}
                </Typography>
                <List dense>
                  {recent.map((a) => (
                    <ListItem key={a.id} disableGutters>
                      <ListItemText
                        primary={`${a.operator?.name || a.operator?.username || '—'} · ${a.action}`}
                        secondary={new Date(a.created_at).toLocaleString(i18n.language)}
                      />
                    </ListItem>
                  ))}
                  {recent.length === 0 ? (
                    <ListItem disableGutters>
                      <ListItemText secondary={t('system.dashboard.no_activity')} />
                    </ListItem>
                  ) : null}
                </List>
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
