import crypto from 'node:crypto';

/** The byte handling lives in server/storage (drivers local, postgres, s3); the files module names keys. */
export { FileTooLargeError, localStorage, type FileStorage, type StagedFile } from '../../storage/index.ts';

/** A fresh storage key: `<yyyy>/<mm>/<32 hex>.<ext>`. */
export function newStorageKey(ext: string): string {
  const now = new Date();
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${now.getUTCFullYear()}/${month}/${crypto.randomBytes(16).toString('hex')}.${ext}`;
}
