import { buildUrl, getDefaultHeaders } from '../../providers/httpClient.ts';
import type { QueryValue } from '../../providers/httpClient.ts';
import { createHttpError } from '../../providers/httpError.ts';
import { currentLocale } from '../../i18n/locale.ts';
import { getToken } from '../../providers/token.ts';

/**
 * Downloads a file from the API as a blob, with the same Bearer token and language as every other call, and
 * hands it to the browser under the server's file name (RFC 6266 `filename*` first). The shell's httpClient
 * reads JSON envelopes only, so this is its blob twin.
 *
 * @example
 * await downloadFile('v1/user/staff/export', { search: 'name:li', searchFields: 'name:like' });
 */
export async function downloadFile(path: string, query: Record<string, QueryValue> = {}): Promise<string> {
  const token = getToken();
  const headers: Record<string, string> = {
    Accept: 'text/csv, application/octet-stream, application/json',
    'Accept-Language': currentLocale(),
    ...getDefaultHeaders(),
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(buildUrl(path, query), { headers, credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw createHttpError({ status: response.status, message: body?.message ?? response.statusText, body });
  }
  const blob = await response.blob();
  const name = fileNameOf(response.headers.get('content-disposition')) ?? path.split('/').pop() ?? 'download';
  saveBlob(blob, name);
  return name;
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''...` preferred over `filename="..."`). */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim();
}

/** Hands a blob to the browser as a file download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
