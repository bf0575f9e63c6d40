import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
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
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/DataState.tsx';
import { JobsTable } from './JobsTable.tsx';
import { JOB_STATES, useJobsPage } from './useJobsPage.ts';

const COUNT_COLUMNS = [...JOB_STATES, 'total'] as const;

/**
 * `/settings/jobs`: every queue with its counts by state (refreshed every 3 s); pick one to see its jobs
 * (state filter, data, retries, progress, error), retry a failed job or cancel a queued one after
 * confirming. The view of useJobsPage.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const page = useJobsPage();

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <div>
          <Typography variant="body2" color="text.secondary">
            {t('system.jobs.subtitle')}
          </Typography>
        </div>
        <Button startIcon={<RefreshIcon />} onClick={page.refresh}>
          {t('system.jobs.actions.refresh')}
        </Button>
      </Stack>
      {page.notice && (
        <Alert severity="success" onClose={page.dismissNotice}>
          {page.notice}
        </Alert>
      )}
      {page.actionError && <Alert severity="error">{page.actionError}</Alert>}
      <Paper variant="outlined">
        <DataState
          isPending={page.isPending}
          error={page.queuesError}
          isEmpty={page.queues.length === 0}
          loadingLabel={t('system.jobs.loading')}
          emptyLabel={t('system.jobs.empty_queues')}
        >
          <Table size="small" aria-label={t('system.jobs.queues')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('system.jobs.queue')}</TableCell>
                {COUNT_COLUMNS.map((s) => (
                  <TableCell key={s} align="right">
                    {t(`system.jobs.states.${s}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {page.queues.map((q) => (
                <TableRow
                  key={q.name}
                  hover
                  selected={q.name === page.queue}
                  onClick={() => page.chooseQueue(q.name)}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell>
                    <Button size="small" onClick={() => page.chooseQueue(q.name)} title={q.name}>
                      {page.queueLabel(q)}
                    </Button>
                  </TableCell>
                  {COUNT_COLUMNS.map((s) => (
                    <TableCell key={s} align="right">
                      {q.counts[s]}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DataState>
      </Paper>
      {page.queue === null ? (
        page.queues.length > 0 && (
          <Typography color="text.secondary">{t('system.jobs.select_queue')}</Typography>
        )
      ) : (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
            <Typography variant="h6" component="h2">
              {page.queueTitle}
            </Typography>
            <TextField
              select
              size="small"
              label={t('system.jobs.fields.state')}
              value={page.state}
              onChange={(e) => page.chooseState(e.target.value)}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="">{t('system.jobs.all_states')}</MenuItem>
              {JOB_STATES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`system.jobs.states.${s}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <JobsTable
            jobs={page.jobs}
            isPending={page.isJobsPending}
            error={page.jobsError}
            canUpdate={page.canUpdate}
            onAction={page.ask}
          />
        </Paper>
      )}
      <Dialog open={page.confirm !== null} onClose={page.cancelConfirm}>
        <DialogTitle>
          {t(page.confirm?.action === 'cancel' ? 'system.jobs.confirm_cancel' : 'system.jobs.confirm_retry')}
        </DialogTitle>
        <DialogActions>
          <Button onClick={page.cancelConfirm}>{t('system.tasks.actions.cancel')}</Button>
          <Button variant="contained" onClick={page.confirmAction}>
            {t(
              page.confirm?.action === 'cancel' ? 'system.jobs.actions.cancel' : 'system.jobs.actions.retry',
            )}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
