import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/localeDate.ts';
import type { useLogsPage } from './useLogsPage.ts';
import { KeyRows } from '../../../components/KeyRows.tsx';

const LEVEL_COLORS: Record<string, string> = {
  warn: 'warning.main',
  error: 'error.main',
  fatal: 'error.main',
};

/** The lines (time, level, message; the whole record as the message's title) and their pagination. */
export function LogsTable({ logs }: { logs: ReturnType<typeof useLogsPage> }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <KeyRows>
        <Table size="small" tabIndex={0} aria-label={t('system.logs.title')}>
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
      </KeyRows>
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
    </>
  );
}
