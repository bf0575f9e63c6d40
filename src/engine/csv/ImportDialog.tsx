import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import type { ResourceHeader } from '../../../resources/meta.ts';
import { UndoNotice } from '../undo/UndoNotice.tsx';
import type { EngineField } from '../data/descriptor.ts';
import { dryRunImport, runImport } from './importApi.ts';
import type { DryRunResult } from './importApi.ts';
import { ImportErrorTable } from './ImportErrorTable.tsx';
import { ColumnMappingTable } from './ColumnMappingTable.tsx';
import {
  initialMapping,
  mappableFields,
  rememberedMapping,
  rememberMapping,
  type ColumnMapping,
} from './columnMapping.ts';
import { readFileHeader } from './fileHeader.ts';

/** A list's resource; with its fields, the dialog offers the mapping step. */
type Resource = ResourceHeader & { fields?: EngineField[] };

/**
 * Import in steps: choosing a file (CSV or .xlsx) reads its header row and maps each column to a field
 * (pre-filled by what this list used before in this browser, else by name or label; a column may be left
 * out), then runs the server's dry run with that mapping and lists the rows it would reject; changing the
 * mapping asks for the check again. The import button (enabled once every row is valid) runs the real,
 * all-or-nothing import with the same mapping, which the list then remembers. A large file is worked through
 * by a server job: its progress is shown, then the same report.
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
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const name = translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.name });
  const labels = useMemo(() => {
    if (!resource.fields) return null;
    const out: Record<string, string> = {
      id: translate(`resources.${resource.name}.fields.id`, { _: 'ID' }),
    };
    for (const f of mappableFields(resource.fields))
      out[f.name] = translate(f.label ?? `resources.${resource.name}.fields.${f.name}`, { _: f.name });
    return out;
  }, [resource, translate]);

  const check = async (picked: File, columns: ColumnMapping | null) => {
    setPreview(null);
    setError(null);
    setIsBusy(true);
    setProgress(null);
    try {
      setPreview(await dryRunImport(resource, picked, onProgress, columns ?? undefined));
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setIsBusy(false);
    }
  };

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!picked) return;
    setFile(picked);
    let columns: ColumnMapping | null = null;
    if (labels) {
      const headers = await readFileHeader(picked).catch(() => []);
      columns = headers.length ? initialMapping(headers, labels, rememberedMapping(resource.name)) : null;
    }
    setMapping(columns);
    await check(picked, columns);
  };

  const onMappingChange = (next: ColumnMapping) => {
    setMapping(next);
    setPreview(null);
  };

  const onImport = async () => {
    if (!file) return;
    setIsBusy(true);
    setProgress(null);
    try {
      const result = await runImport(resource, file, onProgress, mapping ?? undefined);
      if (result.errors?.length) {
        const { total = result.errors.length, valid = 0, errors } = result;
        setPreview({ total, valid, errors });
        setError(translate('engine.csv.invalid_rows'));
        return;
      }
      if (mapping) rememberMapping(resource.name, mapping);
      const message = translate('engine.import_counts.done', { ...result, unchanged: result.unchanged ?? 0 });
      // The success toast offers Undo of the whole import (issue 36 item 5).
      notify(
        <UndoNotice message={message} operationIds={result.operation_id ? [result.operation_id] : []} />,
        {
          autoHideDuration: 10_000,
        },
      );
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
          <input
            type="file"
            accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            hidden
            onChange={onPick}
          />
        </Button>
        {file ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {translate('engine.import.file', { file: file.name })}
          </Typography>
        ) : null}
        {file && mapping && labels ? (
          <>
            <Typography variant="subtitle2" sx={{ mt: 2 }}>
              {translate('engine.xlsx.mapping_title')}
            </Typography>
            <ColumnMappingTable
              mapping={mapping}
              labels={labels}
              onChange={onMappingChange}
              disabled={isBusy}
            />
            {!preview && !isBusy ? (
              <Button variant="outlined" sx={{ mt: 1 }} onClick={() => void check(file, mapping)}>
                {translate('engine.xlsx.check')}
              </Button>
            ) : null}
          </>
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
