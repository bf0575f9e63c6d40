import type { TestApp } from './app.ts';

const BOUNDARY = '----upload-helper-boundary';

/** A 1x1 transparent PNG, for image fields. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart body with one part `file`, as a browser's FormData sends it. */
export function multipartFile(name: string, content: Buffer, type = 'application/octet-stream') {
  return {
    payload: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n`),
      Buffer.from(`Content-Type: ${type}\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/**
 * Uploads a file through `POST /api/v1/resources/assets` (as `file()` / `image()` inputs do) and returns the
 * asset's id, for a body's `photo_id`. `field` (`<resource>.<field>`) uploads for that resource field, which
 * needs the resource's write permission instead of the Files page's. Throws with the response when the
 * upload is refused.
 *
 * @example
 * const photo_id = await uploadAsset(t, token, 'photo.png', TINY_PNG, 'image/png', 'products.photo_id');
 */
export async function uploadAsset(
  t: Pick<TestApp, 'request'>,
  token: string,
  name = 'file.png',
  content: Buffer = TINY_PNG,
  type = 'image/png',
  field?: string,
): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/v1/resources/assets${field ? `?field=${encodeURIComponent(field)}` : ''}`,
    token,
    ...multipartFile(name, content, type),
  });
  if (res.statusCode !== 201) throw new Error(`upload refused: ${res.statusCode} ${res.body}`);
  return String((res.json() as { data: { id: string } }).data.id);
}
