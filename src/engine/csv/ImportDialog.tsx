import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ChangeEvent } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import type { ResourceHeader as Resource } from '../../../resources/meta.ts';
import { dryRunImport, runImport } from './importApi.ts';
import type { DryRunResult } from './importApi.ts';
import { ImportErrorTable } from './ImportErrorTable.tsx';

/**
 * Import in two steps: choosing a file runs the server's dry run and lists the rows it would reject; the
 * import button (enabled once every row is valid) runs the real, all-or-nothing import and reports counts.
 * A large file is worked through by a server job: its progress is shown, then the same report.
 */
export function ImportDialog({ resource, onClose }: { resource: Resource; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<DryRunResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const onProgress = (p: number) => setProgress((old) => Math.max(old ?? 0, p));
  const name = translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.name });

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!picked) return;
    setFile(picked);
    setPreview(null);
    setError(null);
    setIsBusy(true);
    setProgress(null);
    try {
      setPreview(await dryRunImport(resource, picked, onProgress));
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setIsBusy(false);
    }
  };

  const onImport = async () => {
    if (!file) return;
    setIsBusy(true);
    setProgress(null);
    try {
      const result = await runImport(resource, file, onProgress);
      if (result.errors?.length) {
        const { total = result.errors.length, valid = 0, errors } = result;
        setPreview({ total, valid, errors });
        setError(translate('engine.csv.invalid_rows'));
        return;
      }
      notify('engine.import_counts.done', {
        type: 'success',
        messageArgs: { ...result, unchanged: result.unchanged ?? 0 },
      });
      refresh();
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setIsBusy(false);
    }
  };

  const canImport = !!preview && preview.errors.length === 0 && preview.total > 0 && !isBusy;
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="engine-import-title">
      <DialogTitle id="engine-import-title">{translate('engine.import.title', { name })}</DialogTitle>
      <DialogContent>
        <Button component="label" variant="outlined" disabled={isBusy}>
          {translate('engine.import.choose_file')}
          <input type="file" accept=".csv,text/csv" hidden onChange={onPick} />
        </Button>
        {file ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {translate('engine.import.file', { file: file.name })}
          </Typography>
        ) : null}
        {isBusy && progress === null ? (
          <LinearProgress sx={{ mt: 2 }} aria-label={translate('engine.import.checking')} />
        ) : null}
        {isBusy && progress !== null ? (
          <>
            <Typography variant="body2" sx={{ mt: 2 }}>
              {translate('engine.import.job_progress', { progress: Math.round(progress) })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={progress}
              sx={{ mt: 1 }}
              aria-label={translate('engine.import.checking')}
            />
          </>
        ) : null}
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
        {preview ? (
          <>
            <Typography sx={{ mt: 2 }}>
              {translate('engine.import.summary', { total: preview.total, valid: preview.valid })}
            </Typography>
            {preview.unchanged ? (
              <Typography variant="body2">
                {translate('engine.import_counts.unchanged', { unchanged: preview.unchanged })}
              </Typography>
            ) : null}
            {preview.errors.length ? (
              <>
                <ImportErrorTable resource={resource} errors={preview.errors} />
                <Alert severity="warning" sx={{ mt: 2 }}>
                  {translate('engine.import.has_errors')}
                </Alert>
              </>
            ) : (
              <Alert severity="success" sx={{ mt: 2 }}>
                {translate('engine.import.no_errors')}
              </Alert>
            )}
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={onImport} disabled={!canImport}>
          {translate('engine.import.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
