import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import type { JobAction } from './useJobsPage.ts';

/** "Retry this job?" / "Cancel this job?": open while `action` is set. */
export function JobConfirmDialog({
  action,
  onCancel,
  onConfirm,
}: {
  action: JobAction | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const isCancel = action === 'cancel';
  return (
    <Dialog open={action !== null} onClose={onCancel}>
      <DialogTitle>{t(isCancel ? 'system.jobs.confirm_cancel' : 'system.jobs.confirm_retry')}</DialogTitle>
      <DialogActions>
        <Button onClick={onCancel}>{t('system.tasks.actions.cancel')}</Button>
        <Button variant="contained" onClick={onConfirm}>
          {t(isCancel ? 'system.jobs.actions.cancel' : 'system.jobs.actions.retry')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
