import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION, actionPermission } from '../../../../schemas/permissions.ts';
import { httpClient } from '../../../providers/httpClient.ts';
import { useCan } from '../../../providers/useCan.ts';
import { JobsTable, type WireJob } from './JobsTable.tsx';

const STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
const JOBS_KEY = ['system', 'jobs'] as const;

interface WireQueue {
  name: string;
  /** The scheduled task's name for a task's queue, else null. */
  task_name: string | null;
  counts: Record<(typeof STATES)[number] | 'total', number>;
}

/**
 * `/settings/jobs`: every queue with its counts by state (refreshed every 3 s); pick one to see its jobs
 * (state filter, data, retries, progress, error), retry a failed job or cancel a queued one after confirming.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canUpdate = useCan(actionPermission(PERMISSION.systemJobs, 'update'));
  const [queue, setQueue] = useState<string | null>(null);
  const [state, setState] = useState('');
  const [confirm, setConfirm] = useState<{ job: WireJob; action: 'retry' | 'cancel' } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queues = useQuery({
    queryKey: JOBS_KEY,
    queryFn: () => httpClient<WireQueue[]>('v1/system/jobs'),
    refetchInterval: 3000,
  });
  const jobs = useQuery({
    queryKey: [...JOBS_KEY, queue, state],
    queryFn: () =>
      httpClient<{ data: WireJob[] }>(`v1/system/jobs/${encodeURIComponent(queue!)}`, {
        query: { state: state || undefined, size: 50 },
      }),
    enabled: queue !== null,
    refetchInterval: 3000,
  });
  const act = useMutation({
    mutationFn: ({ job, action }: { job: WireJob; action: 'retry' | 'cancel' }) =>
      httpClient<WireJob>(`v1/system/jobs/${encodeURIComponent(job.queue)}/${job.id}/${action}`, {
        method: 'POST',
      }),
    onSuccess: async (_job, { action }) => {
      setNotice(t(action === 'retry' ? 'system.jobs.retried' : 'system.jobs.cancelled'));
      await queryClient.invalidateQueries({ queryKey: JOBS_KEY });
    },
  });
  const list = queues.data ?? [];
  const selected = list.find((q) => q.name === queue);
  // A task's queue carries the task's name; the engine's own queues have catalogue labels.
  const queueLabel = (q: WireQueue) =>
    q.task_name ?? t(`system.jobs.queue_names.${q.name}`, { defaultValue: q.name });

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <div>
          <Typography variant="body2" color="text.secondary">
            {t('system.jobs.subtitle')}
          </Typography>
        </div>
        <Button
          startIcon={<RefreshIcon />}
          onClick={() => void queryClient.invalidateQueries({ queryKey: JOBS_KEY })}
        >
          {t('system.jobs.actions.refresh')}
        </Button>
      </Stack>
      {notice && (
        <Alert severity="success" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {(queues.error || act.error) && <Alert severity="error">{(queues.error ?? act.error)!.message}</Alert>}
      <Paper variant="outlined">
        {queues.isPending ? (
          <Stack direction="row" spacing={1} sx={{ p: 3, alignItems: 'center' }} role="status">
            <CircularProgress size={20} />
            <span>{t('system.jobs.loading')}</span>
          </Stack>
        ) : list.length === 0 ? (
          <Typography sx={{ p: 3 }}>{t('system.jobs.empty_queues')}</Typography>
        ) : (
          <Table size="small" aria-label={t('system.jobs.queues')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('system.jobs.queue')}</TableCell>
                {[...STATES, 'total' as const].map((s) => (
                  <TableCell key={s} align="right">
                    {t(`system.jobs.states.${s}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((q) => (
                <TableRow
                  key={q.name}
                  hover
                  selected={q.name === queue}
                  onClick={() => setQueue(q.name)}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell>
                    <Button size="small" onClick={() => setQueue(q.name)} title={q.name}>
                      {queueLabel(q)}
                    </Button>
                  </TableCell>
                  {[...STATES, 'total' as const].map((s) => (
                    <TableCell key={s} align="right">
                      {q.counts[s]}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Paper>
      {queue === null ? (
        list.length > 0 && <Typography color="text.secondary">{t('system.jobs.select_queue')}</Typography>
      ) : (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
            <Typography variant="h6" component="h2">
              {selected ? queueLabel(selected) : queue}
            </Typography>
            <TextField
              select
              size="small"
              label={t('system.jobs.fields.state')}
              value={state}
              onChange={(e) => setState(e.target.value)}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="">{t('system.jobs.all_states')}</MenuItem>
              {STATES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`system.jobs.states.${s}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <JobsTable
            jobs={jobs.data?.data}
            isPending={jobs.isPending}
            canUpdate={canUpdate}
            onAction={(job, action) => setConfirm({ job, action })}
          />
        </Paper>
      )}
      <Dialog open={confirm !== null} onClose={() => setConfirm(null)}>
        <DialogTitle>
          {t(confirm?.action === 'cancel' ? 'system.jobs.confirm_cancel' : 'system.jobs.confirm_retry')}
        </DialogTitle>
        <DialogActions>
          <Button onClick={() => setConfirm(null)}>{t('system.tasks.actions.cancel')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              if (confirm) act.mutate(confirm);
              setConfirm(null);
            }}
          >
            {t(confirm?.action === 'cancel' ? 'system.jobs.actions.cancel' : 'system.jobs.actions.retry')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
