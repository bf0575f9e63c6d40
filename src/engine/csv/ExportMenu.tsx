import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { lazy, Suspense, useRef, useState } from 'react';
import { useListContext, useNotify, useTranslate } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import type { ExportJobState } from './ExportJobDialog.tsx';
import { exportQuery } from '../data/listQuery.ts';

/** The export's request, job and download logic, and the job's dialog: loaded on the first choice. */
const loadJobs = () => import('./csvJobs.ts');
const loadDownload = () => import('../data/download.ts');
const loadDialog = () => import('./ExportJobDialog.tsx');
const ExportJobDialog = lazy(() => loadDialog().then((m) => ({ default: m.ExportJobDialog })));

/** Fetches what an export needs ahead of the click (ExportButton calls it on hover and focus). */
export function prefetchExport(): void {
  void loadJobs().catch(() => undefined);
  void loadDownload().catch(() => undefined);
  void loadDialog().catch(() => undefined);
}

/**
 * ExportButton's format menu, the export itself (a download, or a job whose dialog shows its progress) and
 * the job's download: a chunk of its own, loaded when the button is first pointed at, focused or pressed,
 * then kept mounted while a job runs.
 */
export function ExportMenu({
  resource,
  menuAnchor,
  onCloseMenu,
  isBusy,
  onBusy,
}: {
  resource: Resource;
  /** The Export button while the format menu is open. */
  menuAnchor: HTMLElement | null;
  onCloseMenu: () => void;
  /** An export or a download under way (the button is disabled meanwhile). */
  isBusy: boolean;
  onBusy: (isBusy: boolean) => void;
}) {
  const { filterValues, sort } = useListContext();
  const notify = useNotify();
  const translate = useTranslate();
  const [job, setJob] = useState<ExportJobState | null>(null);
  const following = useRef<AbortController | null>(null);
  const fail = (error: unknown) =>
    notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });

  const onExport = async (format: 'csv' | 'xlsx') => {
    onCloseMenu();
    onBusy(true);
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
      onBusy(false);
    }
  };

  const onDownload = async () => {
    if (!job) return;
    onBusy(true);
    try {
      const { downloadFile } = await loadDownload();
      await downloadFile(`${resource.endpoint}/export/${job.id}/download`);
      notify('engine.export.done', { type: 'success' });
      setJob(null);
    } catch (error) {
      fail(error);
    } finally {
      onBusy(false);
    }
  };

  const onClose = () => {
    following.current?.abort();
    setJob(null);
  };
  const name = translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.name });
  return (
    <>
      <Menu id="engine-export-menu" anchorEl={menuAnchor} open={!!menuAnchor} onClose={onCloseMenu}>
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
