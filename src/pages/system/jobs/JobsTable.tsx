import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/DataState.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { formatDateTime } from '../../../lib/localeDate.ts';

/** A job as `GET v1/system/jobs/<queue>` lists it. */
export interface WireJob {
  id: string;
  queue: string;
  state: string;
  data: unknown;
  progress: number | null;
  error: string | null;
  retry_count: number;
  retry_limit: number;
  created_at: string;
  completed_at: string | null;
}

/** The jobs of one queue, with retry (failed) and cancel (queued) buttons when allowed. */
export function JobsTable({
  jobs,
  isPending,
  error,
  canUpdate,
  onAction,
}: {
  jobs: WireJob[] | undefined;
  isPending: boolean;
  error?: string | null;
  canUpdate: boolean;
  onAction: (job: WireJob, action: 'retry' | 'cancel') => void;
}) {
  const { t, i18n } = useTranslation();
  const time = (iso: string | null) => formatDateTime(iso, i18n.language);
  return (
    <DataState
      isPending={isPending}
      error={error}
      isEmpty={!jobs?.length}
      loadingLabel={t('system.jobs.loading')}
      emptyLabel={t('system.jobs.empty_jobs')}
    >
      <TableScroll label={t('system.jobs.title')}>
        <Table size="small" aria-label={t('system.jobs.title')}>
          <TableHead>
            <TableRow>
              {(
                [
                  'id',
                  'state',
                  'data',
                  'attempts',
                  'progress',
                  'error',
                  'created_at',
                  'completed_at',
                ] as const
              ).map((f) => (
                <TableCell key={f}>{t(`system.jobs.fields.${f}`)}</TableCell>
              ))}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(jobs ?? []).map((job) => (
              <TableRow key={job.id}>
                <TableCell>
                  <code title={job.id}>{job.id.slice(0, 8)}</code>
                </TableCell>
                <TableCell>{t(`system.jobs.states.${job.state}`)}</TableCell>
                <TableCell sx={{ maxWidth: 260, wordBreak: 'break-all' }}>
                  <code>{JSON.stringify(job.data)}</code>
                </TableCell>
                <TableCell>
                  {job.retry_count} / {job.retry_limit}
                </TableCell>
                <TableCell sx={{ minWidth: 100 }}>
                  {job.progress === null ? (
                    '—'
                  ) : (
                    <LinearProgress
                      variant="determinate"
                      value={job.progress}
                      aria-label={`${job.progress}%`}
                    />
                  )}
                </TableCell>
                <TableCell sx={{ maxWidth: 260 }}>
                  {job.error && (
                    <Typography variant="body2" color="error">
                      {job.error}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{time(job.created_at)}</TableCell>
                <TableCell>{time(job.completed_at)}</TableCell>
                <TableCell align="right">
                  {canUpdate && job.state === 'failed' && (
                    <Button size="small" onClick={() => onAction(job, 'retry')}>
                      {t('system.jobs.actions.retry')}
                    </Button>
                  )}
                  {canUpdate && (job.state === 'created' || job.state === 'retry') && (
                    <Button size="small" color="warning" onClick={() => onAction(job, 'cancel')}>
                      {t('system.jobs.actions.cancel')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableScroll>
    </DataState>
  );
}
