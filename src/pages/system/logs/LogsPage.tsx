import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LocaleDateTextField } from '../../../engine/LocaleDateInput.tsx';
import { formatDateTime } from '../../../lib/localeDate.ts';
import { LOG_LEVELS, useLogsPage } from './useLogsPage.ts';

const LEVEL_COLORS: Record<string, string> = {
  warn: 'warning.main',
  error: 'error.main',
  fatal: 'error.main',
};

/**
 * System logs: the server's pino files newest first, filtered by level, time and text; optional live tail.
 * The view of useLogsPage.
 */
export function LogsPage() {
  const { t, i18n } = useTranslation();
  const logs = useLogsPage();
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label={t('system.logs.node')}
          value={logs.node || logs.shownNode?.id || ''}
          onChange={(e) => logs.chooseNode(e.target.value)}
          sx={{ minWidth: 220 }}
        >
          {logs.nodes.map((n) => (
            <MenuItem key={n.id} value={n.id}>
              {logs.nodeLabel(n)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('system.logs.level')}
          value={logs.filters.level}
          onChange={(e) => logs.setFilter('level', e.target.value)}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">{t('system.logs.all_levels')}</MenuItem>
          {LOG_LEVELS.map((l) => (
            <MenuItem key={l} value={l}>
              {l}
            </MenuItem>
          ))}
        </TextField>
        {(['from', 'to'] as const).map((name) => (
          <LocaleDateTextField
            key={name}
            kind="datetime"
            size="small"
            label={t(`system.logs.${name}`)}
            value={logs.filters[name]}
            // Half-typed text (null) keeps the last real time as the filter.
            onChange={(native) => {
              if (native !== null) logs.setFilter(name, native);
            }}
          />
        ))}
        <TextField
          size="small"
          type="search"
          label={t('system.logs.text')}
          value={logs.filters.text}
          onChange={(e) => logs.setFilter('text', e.target.value)}
        />
        <FormControlLabel
          control={
            <Switch
              checked={logs.isLive}
              disabled={!!logs.node}
              onChange={(e) => logs.setIsLive(e.target.checked)}
            />
          }
          label={t('system.logs.live')}
        />
      </Stack>
      {logs.shownNode ? (
        <Typography variant="body2" color="text.secondary">
          {t(
            logs.shownNode.source === 'files' ? 'system.logs.showing_files' : 'system.logs.showing_published',
            {
              node: logs.nodeLabel(logs.shownNode),
            },
          )}
        </Typography>
      ) : null}
      {logs.isError ? <Alert severity="error">{t('system.logs.load_error')}</Alert> : null}
      <Paper aria-busy={logs.isFetching}>
        {/* Reading a busy day's file takes a moment: say so instead of showing an empty "0-0 of 0". */}
        {logs.isFetching ? <LinearProgress aria-label={t('app.loading')} /> : null}
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('system.logs.time')}</TableCell>
              <TableCell>{t('system.logs.level')}</TableCell>
              <TableCell>{t('system.logs.message')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {logs.rows.map((entry, index) => (
              <TableRow key={`${entry.time ?? ''}-${index}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(entry.time, i18n.language)}
                </TableCell>
                <TableCell sx={{ color: LEVEL_COLORS[entry.level] }}>{entry.level}</TableCell>
                <TableCell
                  sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                  title={JSON.stringify(entry.record)}
                >
                  {entry.msg || JSON.stringify(entry.record)}
                </TableCell>
              </TableRow>
            ))}
            {logs.hasLoaded && logs.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={3}>{t('system.logs.empty')}</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          count={logs.total}
          labelDisplayedRows={({ from: first, to: last, count }) =>
            count < 0
              ? ''
              : t(logs.isTotalApproximate ? 'system.logs.displayed_capped' : 'system.logs.displayed', {
                  from: first,
                  to: last,
                  count,
                })
          }
          page={logs.page}
          rowsPerPage={logs.size}
          rowsPerPageOptions={[20, 50, 100, 200]}
          labelRowsPerPage={t('system.logs.rows_per_page')}
          onPageChange={(_, next) => logs.setPage(next)}
          onRowsPerPageChange={(e) => logs.setSize(Number(e.target.value))}
        />
      </Paper>
    </Stack>
  );
}
