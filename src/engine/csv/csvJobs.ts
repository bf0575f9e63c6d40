import { subscribeLive } from '../../events/eventStream.ts';
import { currentLocale } from '../../i18n/locale.ts';
import { buildUrl, getDefaultHeaders, httpClient } from '../../providers/httpClient.ts';
import type { QueryValue } from '../../providers/httpClient.ts';
import { createHttpError } from '../../providers/httpError.ts';
import { getToken } from '../../providers/token.ts';
import { fileNameOf, saveBlob } from '../data/download.ts';

/** What the server answers (202) when a CSV export or import is large enough to run as a job. */
export interface CsvJobTicket {
  job_id: string;
  queue: string;
  state: 'queued';
}

/** `GET <endpoint>/export|import/<job>`: the requester's view of the job. */
export interface CsvJobStatus {
  id: string;
  state: string;
  progress: number | null;
  output: unknown;
  error: string | null;
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

export function isJobTicket(value: unknown): value is CsvJobTicket {
  return !!value && typeof value === 'object' && typeof (value as CsvJobTicket).job_id === 'string';
}

/**
 * Asks for an export: a small one arrives as the file (saved at once, resolves `{ file }`), a large one as a
 * job ticket (`{ job }`) to follow with `waitForCsvJob` and then download from `<endpoint>/export/<id>/download`.
 */
export async function requestExport(
  path: string,
  query: Record<string, QueryValue>,
): Promise<{ file: string } | { job: CsvJobTicket }> {
  const token = getToken();
  const headers: Record<string, string> = {
    Accept: 'text/csv, application/json',
    'Accept-Language': currentLocale(),
    ...getDefaultHeaders(),
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(buildUrl(path, query), { headers, credentials: 'same-origin' });
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  if (response.status === 202 && isJson) {
    const body = (await response.json()) as { data?: unknown };
    if (isJobTicket(body.data)) return { job: body.data };
  }
  if (!response.ok) {
    const body = (isJson ? await response.json().catch(() => null) : null) as { message?: string } | null;
    throw createHttpError({ status: response.status, message: body?.message ?? response.statusText, body });
  }
  const name = fileNameOf(response.headers.get('content-disposition')) ?? 'export.csv';
  saveBlob(await response.blob(), name);
  return { file: name };
}

/**
 * Follows a CSV job until it ends: progress from the live event stream (`job` events for this id), with the
 * job's status polled every `pollMs` as the fallback and as the source of its final state and output.
 * Example: `const status = await waitForCsvJob('v1/user/staff', 'export', id, setProgress)`.
 */
export function waitForCsvJob(
  endpoint: string,
  kind: 'export' | 'import',
  id: string,
  onProgress: (percent: number) => void,
  { pollMs = 2000, signal }: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<CsvJobStatus> {
  return new Promise((resolve, reject) => {
    let isDone = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: () => void) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      stopLive();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const check = async () => {
      try {
        const status = await httpClient<CsvJobStatus>(`${endpoint}/${kind}/${id}`);
        if (isDone) return;
        if (typeof status.progress === 'number') onProgress(status.progress);
        if (FINAL.has(status.state)) finish(() => resolve(status));
        else {
          clearTimeout(timer);
          timer = setTimeout(() => void check(), pollMs);
        }
      } catch (error) {
        finish(() => reject(error as Error));
      }
    };
    const stopLive = subscribeLive((event) => {
      const data = event.data as { id?: string; state?: string; progress?: number } | null;
      if (event.type !== 'job' || data?.id !== id) return;
      if (typeof data.progress === 'number') onProgress(data.progress);
      if (data.state !== 'active') void check();
    });
    const onAbort = () => finish(() => reject(new DOMException('Aborted', 'AbortError')));
    signal?.addEventListener('abort', onAbort);
    void check();
  });
}

/** The output of a finished job, or an error with the job's message when it did not complete. */
export function outputOf<T>(status: CsvJobStatus): T {
  if (status.state !== 'completed') throw new Error(status.error ?? status.state);
  return status.output as T;
}
