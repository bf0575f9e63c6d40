import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';

/** A large export running as a job: its progress, then the file to download (or the job's error). */
export interface ExportJobState {
  id: string;
  progress: number;
  /** Rows in the finished file, once completed. */
  rows?: number;
  error?: string;
}

export function ExportJobDialog({
  name,
  job,
  isDownloading,
  onDownload,
  onClose,
}: {
  name: string;
  job: ExportJobState;
  isDownloading: boolean;
  onDownload: () => void;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const isReady = job.rows !== undefined;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="engine-export-title">
      <DialogTitle id="engine-export-title">{translate('engine.export.title', { name })}</DialogTitle>
      <DialogContent>
        {job.error ? (
          <Alert severity="error">{translate('engine.export.failed', { error: job.error })}</Alert>
        ) : isReady ? (
          <Alert severity="success">{translate('engine.export.ready', { rows: job.rows })}</Alert>
        ) : (
          <>
            <Typography variant="body2">
              {translate('engine.export.preparing', { progress: Math.round(job.progress) })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={job.progress}
              sx={{ mt: 2 }}
              aria-label={translate('engine.export.preparing', { progress: Math.round(job.progress) })}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
        {isReady ? (
          <Button variant="contained" onClick={onDownload} disabled={isDownloading}>
            {translate('engine.export.download')}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}
