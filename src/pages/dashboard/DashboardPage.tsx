import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { FigureTiles } from './FigureTiles.tsx';
import { RecentActivityCard } from './RecentActivityCard.tsx';
import { SignInsCard } from './SignInsCard.tsx';
import { useDashboardPage } from './useDashboardPage.ts';

/**
 * Staff landing page: counts, sign-ins over 30 days (chart), recent activity and the pages the user may open;
 * each figure shows only to holders of the page it summarises. The view of useDashboardPage.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboardPage();
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('system.dashboard.title')}
      </Typography>
      {dashboard.name !== null ? (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('system.dashboard.welcome', { name: dashboard.name })}
        </Typography>
      ) : null}
      {dashboard.isError ? <Alert severity="error">{t('system.dashboard.load_error')}</Alert> : null}
      <FigureTiles tiles={dashboard.tiles} isPending={dashboard.isPending} />
      <Grid container spacing={2}>
        {dashboard.isPending || dashboard.signIns ? (
          <Grid size={{ xs: 12, md: 7 }}>
            <SignInsCard
              days={dashboard.signIns}
              isPending={dashboard.isPending}
              hasSignIns={dashboard.hasSignIns}
            />
          </Grid>
        ) : null}
        {dashboard.recent ? (
          <Grid size={{ xs: 12, md: 5 }}>
            <RecentActivityCard recent={dashboard.recent} />
          </Grid>
        ) : null}
      </Grid>
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t('system.dashboard.quick_links')}
      </Typography>
      <Grid container spacing={2}>
        {dashboard.links.map((link) => (
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
