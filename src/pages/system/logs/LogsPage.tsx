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
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '../../../../schemas/logs.ts';
import type { Paged } from '../../../../schemas/pagination.ts';
import { useLiveEvents } from '../../../events/useLiveEvents.ts';
import { httpClient } from '../../../providers/httpClient.ts';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
const LEVEL_COLORS: Record<string, string> = {
  warn: 'warning.main',
  error: 'error.main',
  fatal: 'error.main',
};
/** Live lines kept above the first page. */
const MAX_LIVE = 200;

interface LogNode {
  id: string;
  host: string;
  pid: number;
  is_self: boolean;
}
type LogPage = Paged<
  LogEntry,
  {
    /** Whose lines these are: this server's files, or what another server published to the database. */
    node?: LogNode & { source: 'files' | 'published' };
    /** The live servers to choose from. */
    nodes?: (LogNode & { status: string })[];
  }
>;

/** System logs: the server's pino files newest first, filtered by level, time and text; optional live tail. */
export function LogsPage() {
  const { t, i18n } = useTranslation();
  const [level, setLevel] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [text, setText] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(50);
  const [isLive, setIsLive] = useState(false);
  const [live, setLive] = useState<LogEntry[]>([]);
  const [node, setNode] = useState('');
  const query = {
    node: node || undefined,
    level: level || undefined,
    from: from ? new Date(from).toISOString() : undefined,
    to: to ? new Date(to).toISOString() : undefined,
    text: text.trim() || undefined,
    page: page + 1,
    size,
  };
  const logs = useQuery({
    queryKey: ['system', 'logs', query],
    queryFn: () => httpClient<LogPage>('v1/system/logs', { query }),
    placeholderData: keepPreviousData,
  });
  useLiveEvents((event) => {
    if (event.type !== 'log') return;
    const entry = event.data as LogEntry;
    if (level && LEVELS.indexOf(entry.level as (typeof LEVELS)[number]) < LEVELS.indexOf(level as 'info'))
      return;
    if (query.text && !JSON.stringify(entry.record).toLowerCase().includes(query.text.toLowerCase())) return;
    setLive((lines) => [entry, ...lines].slice(0, MAX_LIVE));
  }, isLive && !node);
  const rows = [...(isLive && !node && page === 0 ? live : []), ...(logs.data?.data ?? [])];
  const shown = logs.data?.meta.node;
  const nodeLabel = (n: LogNode) =>
    t(n.is_self ? 'system.logs.node_self' : 'system.logs.node_option', {
      host: n.host,
      pid: n.pid,
      id: n.id,
    });
  const resetPage = () => {
    setPage(0);
    setLive([]);
  };
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label={t('system.logs.node')}
          value={node || shown?.id || ''}
          onChange={(e) => {
            const chosen = logs.data?.meta.nodes?.find((n) => n.id === e.target.value);
            setNode(chosen && !chosen.is_self ? chosen.id : '');
            resetPage();
          }}
          sx={{ minWidth: 220 }}
        >
          {(logs.data?.meta.nodes ?? []).map((n) => (
            <MenuItem key={n.id} value={n.id}>
              {nodeLabel(n)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('system.logs.level')}
          value={level}
          onChange={(e) => {
            setLevel(e.target.value);
            resetPage();
          }}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">{t('system.logs.all_levels')}</MenuItem>
          {LEVELS.map((l) => (
            <MenuItem key={l} value={l}>
              {l}
            </MenuItem>
          ))}
        </TextField>
        {(
          [
            ['from', from, setFrom],
            ['to', to, setTo],
          ] as const
        ).map(([name, value, set]) => (
          <TextField
            key={name}
            size="small"
            type="datetime-local"
            label={t(`system.logs.${name}`)}
            value={value}
            onChange={(e) => {
              set(e.target.value);
              resetPage();
            }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
        <TextField
          size="small"
          type="search"
          label={t('system.logs.text')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            resetPage();
          }}
        />
        <FormControlLabel
          control={
            <Switch
              checked={isLive && !node}
              disabled={!!node}
              onChange={(e) => setIsLive(e.target.checked)}
            />
          }
          label={t('system.logs.live')}
        />
      </Stack>
      {shown ? (
        <Typography variant="body2" color="text.secondary">
          {t(shown.source === 'files' ? 'system.logs.showing_files' : 'system.logs.showing_published', {
            node: nodeLabel(shown),
          })}
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
            {rows.map((entry, index) => (
              <TableRow key={`${entry.time ?? ''}-${index}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {entry.time ? new Date(entry.time).toLocaleString(i18n.language) : '—'}
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
            {logs.data && rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={3}>{t('system.logs.empty')}</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          // Unknown (-1) until the first page arrives: no "0-0 of 0" while it loads.
          count={logs.data ? logs.data.meta.pagination.total : -1}
          labelDisplayedRows={({ from: first, to: last, count }) =>
            count < 0
              ? ''
              : t(
                  logs.data?.meta.pagination.total_is_capped || logs.data?.meta.pagination.total_is_estimate
                    ? 'system.logs.displayed_capped'
                    : 'system.logs.displayed',
                  { from: first, to: last, count },
                )
          }
          page={page}
          rowsPerPage={size}
          rowsPerPageOptions={[20, 50, 100, 200]}
          labelRowsPerPage={t('system.logs.rows_per_page')}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setSize(Number(e.target.value));
            resetPage();
          }}
        />
      </Paper>
    </Stack>
  );
}
