import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../../schemas/bytes.ts';
import { formatDuration } from './monitorTypes.ts';
import { FigureTable, MonitorSection } from './MonitorSection.tsx';
import { NodesCard } from './NodesCard.tsx';
import { useMonitor } from './useMonitor.ts';
import { jobStateName, queueName } from '../systemNames.ts';

const MonitorCharts = lazy(() => import('./MonitorCharts.tsx').then((m) => ({ default: m.MonitorCharts })));

/**
 * System monitor: host, process, database and queue figures and charts of the last minutes. The view of
 * useMonitor (a first reading, then live figures every 2 s over events).
 */
export function MonitorPage() {
  const { t, i18n } = useTranslation();
  const { history, latest: now, isLive, isError } = useMonitor();
  const rows = (pairs: [string, string][]) => <FigureTable pairs={pairs} />;
  const section = (title: string, body: ReactNode) => <MonitorSection title={title}>{body}</MonitorSection>;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Chip
          size="small"
          color={isLive ? 'success' : 'default'}
          label={t(isLive ? 'system.monitor.live' : 'system.monitor.waiting')}
        />
      </Stack>
      {isError ? <Alert severity="error">{t('system.monitor.load_error')}</Alert> : null}
      <NodesCard />
      {now ? (
        <Grid container spacing={2}>
          {section(
            t('system.monitor.host'),
            rows([
              [
                t('system.monitor.cpu'),
                `${(now.host.cpu_usage * 100).toFixed(1)}% (${t('system.monitor.cpus', { count: now.host.cpus })})`,
              ],
              [t('system.monitor.load'), now.host.load.join(' / ')],
              [
                t('system.monitor.memory'),
                `${formatBytes(now.host.memory.used)} / ${formatBytes(now.host.memory.total)}`,
              ],
              [
                t('system.monitor.disk'),
                now.disk
                  ? `${formatBytes(now.disk.used)} / ${formatBytes(now.disk.total)}`
                  : t('system.monitor.unknown'),
              ],
              [t('system.monitor.uptime'), formatDuration(now.host.uptime_s)],
            ]),
          )}
          {section(
            t('system.monitor.process'),
            rows([
              [t('system.monitor.node'), now.process.node_version],
              [t('system.monitor.uptime'), formatDuration(now.process.uptime_s)],
              [
                t('system.monitor.heap'),
                `${formatBytes(now.process.heap_used)} / ${formatBytes(now.process.heap_total)}`,
              ],
              [t('system.monitor.rss'), formatBytes(now.process.rss)],
              [t('system.monitor.event_loop'), `${now.process.event_loop_p99_ms} ms`],
            ]),
          )}
          {section(
            t('system.monitor.database'),
            rows([
              [t('system.monitor.db_kind'), now.database.kind],
              [t('system.monitor.db_version'), now.database.version ?? t('system.monitor.unknown')],
              [t('system.monitor.db_size'), formatBytes(now.database.size)],
              [t('system.monitor.db_connections'), String(now.database.connections ?? '—')],
            ]),
          )}
          {section(
            t('system.monitor.queues'),
            now.queues ? (
              rows(
                Object.entries(now.queues).map(([queue, states]) => [
                  queueName(t, queue),
                  Object.entries(states)
                    .map(([k, v]) => `${jobStateName(t, k)}: ${v.toLocaleString(i18n.language)}`)
                    .join(', '),
                ]),
              )
            ) : (
              <Typography color="text.secondary">{t('system.monitor.queues_unavailable')}</Typography>
            ),
          )}
        </Grid>
      ) : null}
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            {t('system.monitor.chart_title')}
          </Typography>
          {history.length > 0 ? (
            <Suspense fallback={<CircularProgress />}>
              <MonitorCharts
                history={history}
                labels={{
                  cpu: t('system.monitor.chart_cpu'),
                  memory: t('system.monitor.chart_memory'),
                  heap: t('system.monitor.chart_heap'),
                  eventLoop: t('system.monitor.chart_event_loop'),
                }}
              />
            </Suspense>
          ) : null}
        </CardContent>
      </Card>
    </Stack>
  );
}
