import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';

const SignInsChart = lazy(() => import('./SignInsChart.tsx').then((m) => ({ default: m.SignInsChart })));
/** Same as SignInsChart's CHART_HEIGHT (not imported, so the chart's chunk stays lazy). */
const CHART_HEIGHT = 260;

/**
 * Sign-ins over 30 days: a skeleton while loading, the (lazy) chart, or a line saying there were none. The
 * skeletons are progress bars named "Loading" (a name on a plain span is not allowed ARIA).
 */
export function SignInsCard({
  days,
  isPending,
  hasSignIns,
}: {
  days: { day: string; count: number }[] | undefined;
  isPending: boolean;
  hasSignIns: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('system.dashboard.sign_ins_chart')}
        </Typography>
        <div data-testid="sign-ins-chart" style={{ minHeight: CHART_HEIGHT }}>
          {isPending ? (
            <Skeleton
              variant="rectangular"
              height={CHART_HEIGHT}
              role="progressbar"
              aria-label={t('app.loading')}
              data-testid="chart-skeleton"
            />
          ) : hasSignIns && days ? (
            <Suspense
              fallback={
                <Skeleton
                  variant="rectangular"
                  height={CHART_HEIGHT}
                  role="progressbar"
                  aria-label={t('app.loading')}
                />
              }
            >
              <SignInsChart days={days} label={t('system.dashboard.sign_ins_series')} />
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
  );
}
