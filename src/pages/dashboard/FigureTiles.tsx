import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { DashboardTile } from './useDashboardPage.ts';

/** The counts, each a link to the page it summarises; skeletons while they load. */
export function FigureTiles({ tiles, isPending }: { tiles: DashboardTile[]; isPending: boolean }) {
  const { t } = useTranslation();
  return (
    <Grid container spacing={2} sx={{ mb: 2 }} aria-busy={isPending}>
      {isPending
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
  );
}
