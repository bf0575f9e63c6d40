import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/DataState.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { taskName } from '../systemNames.ts';
import { TaskResult } from './TaskResult.tsx';
import { TASKS_KEY, formatTime, taskApi, type WireRun, type WireTask } from './taskApi.ts';

const STATUS_COLOR = { running: 'info', succeeded: 'success', failed: 'error' } as const;

/** The run history of one task (newest first), refreshed every 2 s while shown. */
export function TaskRuns({ task }: { task: WireTask }) {
  const { t, i18n } = useTranslation();
  const runs = useQuery({
    queryKey: [...TASKS_KEY, 'runs', task.id],
    queryFn: () => taskApi.runs(task.id),
    refetchInterval: 2000,
  });
  const rows = runs.data?.data ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('system.tasks.runs.title')}: {taskName(t, task.name)}
      </Typography>
      <DataState
        isPending={runs.isPending}
        error={runs.error?.message}
        isEmpty={rows.length === 0}
        loadingLabel={t('system.tasks.loading')}
        emptyLabel={t('system.tasks.runs.empty')}
      >
        <TableScroll label={t('system.tasks.runs.title')}>
          <Table
            size="small"
            aria-label={t('system.tasks.runs.title')}
            // Short words stay whole in a narrow table (it scrolls instead); the result wraps in its column.
            sx={{ '& th, & td': { whiteSpace: 'nowrap' }, '& td.result': { whiteSpace: 'normal' } }}
          >
            <TableHead>
              <TableRow>
                <TableCell>{t('system.tasks.runs.started_at')}</TableCell>
                <TableCell>{t('system.tasks.runs.trigger')}</TableCell>
                <TableCell>{t('system.tasks.runs.status')}</TableCell>
                <TableCell>{t('system.tasks.runs.duration')}</TableCell>
                <TableCell>{t('system.tasks.runs.result')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((run: WireRun) => (
                <TableRow key={run.id}>
                  <TableCell>{formatTime(run.started_at, i18n.language)}</TableCell>
                  <TableCell>{t(`system.tasks.trigger.${run.trigger}`)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATUS_COLOR[run.status]}
                      label={t(`system.tasks.status.${run.status}`)}
                    />
                  </TableCell>
                  <TableCell>
                    {run.duration_ms === null ? '—' : t('system.tasks.runs.ms', { ms: run.duration_ms })}
                  </TableCell>
                  <TableCell
                    className="result"
                    sx={{ minWidth: 220, maxWidth: 420, wordBreak: 'break-word' }}
                  >
                    {run.error ? (
                      <Typography color="error" variant="body2">
                        {run.error}
                      </Typography>
                    ) : (
                      <TaskResult result={run.result} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroll>
      </DataState>
    </Paper>
  );
}
