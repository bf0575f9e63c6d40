import DownloadIcon from '@mui/icons-material/Download';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { lazy, Suspense, useRef, useState } from 'react';
import { Button, useListContext, useNotify, useTranslate } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import type { ExportJobState } from './ExportJobDialog.tsx';
import { exportQuery } from '../data/listQuery.ts';

/**
 * The export's request, job and download logic, and the job's dialog: loaded on the first click (or hover,
 * ahead).
 */
const loadJobs = () => import('./csvJobs.ts');
const loadDownload = () => import('../data/download.ts');
const loadDialog = () => import('./ExportJobDialog.tsx');
const ExportJobDialog = lazy(() => loadDialog().then((m) => ({ default: m.ExportJobDialog })));
const prefetch = () => {
  void loadJobs().catch(() => undefined);
  void loadDownload().catch(() => undefined);
  void loadDialog().catch(() => undefined);
};

/**
 * A menu of the two formats (CSV, Excel .xlsx) that downloads the server's export of the list with its current filters and sort (all rows, no paging). A
 * large export runs as a job on the server (202): a dialog shows its progress live and offers the file
 * once it is written. The request and job code and the dialog load on demand: a list that is never exported
 * does not carry them. It names no columns: the server's default set is the caller's readable ones (no
 * hidden field, no reference to records it may not read), which a `fields=` from here could only get wrong
 * (a 403 for such a reference).
 */
export function ExportButton({ resource }: { resource: Resource }) {
  const { filterValues, sort, total } = useListContext();
  const notify = useNotify();
  const translate = useTranslate();
  const [isBusy, setIsBusy] = useState(false);
  const [job, setJob] = useState<ExportJobState | null>(null);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const following = useRef<AbortController | null>(null);
  const fail = (error: unknown) =>
    notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });

  const onExport = async (format: 'csv' | 'xlsx') => {
    setMenuAnchor(null);
    setIsBusy(true);
    try {
      const { outputOf, requestExport, waitForCsvJob } = await loadJobs();
      const result = await requestExport(`${resource.endpoint}/export`, {
        ...exportQuery(resource, { filter: filterValues, sort }),
        ...(format === 'xlsx' ? { format } : {}),
      });
      if ('file' in result) {
        notify('engine.export.done', { type: 'success' });
        return;
      }
      const id = result.job.job_id;
      const abort = new AbortController();
      following.current = abort;
      setJob({ id, progress: 0 });
      const onProgress = (p: number) =>
        setJob((j) => (j && j.id === id ? { ...j, progress: Math.max(j.progress, p) } : j));
      const status = await waitForCsvJob(resource.endpoint, 'export', id, onProgress, {
        signal: abort.signal,
      });
      try {
        const { rows } = outputOf<{ rows: number }>(status);
        setJob({ id, progress: 100, rows });
      } catch (error) {
        setJob({ id, progress: 100, error: (error as Error).message });
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError') fail(error);
    } finally {
      setIsBusy(false);
    }
  };

  const onDownload = async () => {
    if (!job) return;
    setIsBusy(true);
    try {
      const { downloadFile } = await loadDownload();
      await downloadFile(`${resource.endpoint}/export/${job.id}/download`);
      notify('engine.export.done', { type: 'success' });
      setJob(null);
    } catch (error) {
      fail(error);
    } finally {
      setIsBusy(false);
    }
  };

  const onClose = () => {
    following.current?.abort();
    setJob(null);
  };
  const name = translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.name });
  return (
    <>
      <Button
        label="engine.action.export"
        onClick={(event) => setMenuAnchor(event.currentTarget)}
        onMouseEnter={prefetch}
        onFocus={prefetch}
        disabled={isBusy || total === 0}
        aria-haspopup="menu"
        aria-expanded={menuAnchor ? 'true' : undefined}
        aria-controls={menuAnchor ? 'engine-export-menu' : undefined}
      >
        <DownloadIcon />
      </Button>
      <Menu
        id="engine-export-menu"
        anchorEl={menuAnchor}
        open={!!menuAnchor}
        onClose={() => setMenuAnchor(null)}
      >
        <MenuItem onClick={() => void onExport('csv')}>{translate('engine.xlsx.export_csv')}</MenuItem>
        <MenuItem onClick={() => void onExport('xlsx')}>{translate('engine.xlsx.export_xlsx')}</MenuItem>
      </Menu>
      {job ? (
        // Nothing in its place while it loads: the dialog opens over the page.
        <Suspense fallback={null}>
          <ExportJobDialog
            name={name}
            job={job}
            isDownloading={isBusy}
            onDownload={onDownload}
            onClose={onClose}
          />
        </Suspense>
      ) : null}
    </>
  );
}
