import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LogsFilterBar } from './LogsFilterBar.tsx';
import { LogsTable } from './LogsTable.tsx';
import { useLogsPage } from './useLogsPage.ts';

/**
 * System logs: the server's pino files newest first, filtered by level, time and text; optional live tail.
 * The view of useLogsPage.
 */
export function LogsPage() {
  const { t } = useTranslation();
  const logs = useLogsPage();
  return (
    <Stack spacing={2}>
      <LogsFilterBar logs={logs} />
      {logs.shownNode ? (
        <Typography variant="body2" color="text.secondary">
          {t(
            logs.shownNode.source === 'files' ? 'system.logs.showing_files' : 'system.logs.showing_published',
            { node: logs.nodeLabel(logs.shownNode) },
          )}
        </Typography>
      ) : null}
      {logs.isError ? <Alert severity="error">{t('system.logs.load_error')}</Alert> : null}
      <Paper aria-busy={logs.isFetching}>
        {/* Reading a busy day's file takes a moment: say so instead of showing an empty "0-0 of 0". */}
        {logs.isFetching ? <LinearProgress aria-label={t('app.loading')} /> : null}
        <LogsTable logs={logs} />
      </Paper>
    </Stack>
  );
}
