import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { JobConfirmDialog } from './JobConfirmDialog.tsx';
import { QueueJobsPanel } from './QueueJobsPanel.tsx';
import { QueuesTable } from './QueuesTable.tsx';
import { useJobsPage } from './useJobsPage.ts';

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
        <QueuesTable
          queues={page.queues}
          isPending={page.isPending}
          error={page.queuesError}
          chosen={page.queue}
          label={page.queueLabel}
          onChoose={page.chooseQueue}
        />
      </Paper>
      {page.queue === null ? (
        page.queues.length > 0 && (
          <Typography color="text.secondary">{t('system.jobs.select_queue')}</Typography>
        )
      ) : (
        <QueueJobsPanel page={page} />
      )}
      <JobConfirmDialog
        action={page.confirm?.action ?? null}
        onCancel={page.cancelConfirm}
        onConfirm={page.confirmAction}
      />
    </Stack>
  );
}
