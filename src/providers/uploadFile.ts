import { ASSETS_ENDPOINT } from './assetsEndpoint.ts';
import { currentLocale } from '../i18n/locale.ts';
import { buildUrl, getDefaultHeaders } from './httpClient.ts';
import { getToken, getXsrfToken } from './token.ts';

/** The asset the upload call returns (API contract, Files). */
export interface Asset {
  id: string;
  name: string;
  size: number;
  mime: string;
  created_at: string;
}

export { ASSETS_ENDPOINT };

/**
 * Uploads one file as multipart (part `file`) with the app's token, XSRF header and language, reporting
 * progress (0..1). XMLHttpRequest because fetch cannot report upload progress. Rejects with the server's
 * message (413 "Files should be less than 10 MB", 422 "This file type is not allowed", ...).
 *
 * `field` (`<resource>.<field>`) uploads for a resource's file()/image() field: the resource's write
 * permission is enough, the Files page's is not needed.
 *
 * @example
 * const asset = await uploadFile(file, { onProgress: (p) => setProgress(p), field: 'products.photo_id' });
 */
export function uploadFile(
  file: File,
  {
    onProgress,
    signal,
    field,
  }: { onProgress?: (fraction: number) => void; signal?: AbortSignal; field?: string } = {},
): Promise<Asset> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(ASSETS_ENDPOINT, field ? { field } : {}));
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': currentLocale(),
      ...getDefaultHeaders(),
    };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const xsrf = getXsrfToken();
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body?.data) return resolve(body.data as Asset);
      const detail = body?.errors?.file?.[0];
      const message =
        body?.message && detail && detail !== body.message ? `${body.message}: ${detail}` : null;
      reject(new Error(message ?? body?.message ?? xhr.statusText ?? 'Upload failed'));
    };
    xhr.onerror = () => reject(new Error('Network error'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

interface Envelope {
  data?: unknown;
  message?: string;
  errors?: Record<string, string[]>;
}

function parse(text: string): Envelope | null {
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return null;
  }
}
