import { httpClient } from '../../providers/httpClient.ts';
import type { ResourceHeader as Resource } from '../../../resources/meta.ts';
import { isJobTicket, outputOf, waitForCsvJob, type CsvJobTicket } from './csvJobs.ts';

export interface DryRunResult {
  total: number;
  valid: number;
  errors: { row: number; errors: Record<string, string[]> }[];
  /** Rows matching a record they would not change (left alone by the import). */
  unchanged?: number;
}

export interface ImportResult {
  created: number;
  updated: number;
  /** Rows matching a record they would not change: left alone. */
  unchanged?: number;
  total?: number;
  valid?: number;
  /** Only from a large import run as a job: the rows that kept the file from being imported (nothing was). */
  errors?: DryRunResult['errors'];
  /** The import as one operation, for its Undo (`meta.operation_id`; a job keeps it in its output). */
  operation_id?: string;
}

/** Progress (0-100) of a large file, which the server works through as a background job. */
export type OnImportProgress = (percent: number) => void;

/** Checks every row of a CSV or .xlsx file with the resource's schema; writes nothing. */
export function dryRunImport(
  resource: Resource,
  file: File,
  onProgress?: OnImportProgress,
  mapping?: Record<string, string>,
): Promise<DryRunResult> {
  return postImport<DryRunResult>(resource, file, { dry_run: 1 }, onProgress, mapping);
}

/** Imports the file in one transaction (all rows or none). */
export function runImport(
  resource: Resource,
  file: File,
  onProgress?: OnImportProgress,
  mapping?: Record<string, string>,
): Promise<ImportResult> {
  return postImport<ImportResult>(resource, file, {}, onProgress, mapping);
}

/** Posts the file; a large one comes back as a job ticket (202), followed until its report is ready. */
async function postImport<T>(
  resource: Resource,
  file: File,
  query: Record<string, number>,
  onProgress: OnImportProgress = () => {},
  mapping?: Record<string, string>,
): Promise<T> {
  const form = new FormData();
  // Before the file: the server reads the parts that precede it (file column header -> field).
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  form.append('file', file);
  let operationId: unknown;
  const data = await httpClient<T | CsvJobTicket>(`${resource.endpoint}/import`, {
    method: 'POST',
    query,
    body: form,
    onMeta: (meta) => (operationId = meta.operation_id),
  });
  if (!isJobTicket(data)) {
    return typeof operationId === 'string' ? ({ ...data, operation_id: operationId } as T) : data;
  }
  onProgress(0);
  return outputOf<T>(await waitForCsvJob(resource.endpoint, 'import', data.job_id, onProgress));
}
