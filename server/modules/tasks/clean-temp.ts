import type { AppContext } from '../../core/app-module.ts';

/**
 * Deletes abandoned staged uploads: an upload is streamed to a temporary object of the storage
 * (`uploads/.tmp/<random>.part` for local, a keyless `storage_objects` row for postgres, `.tmp/` in the
 * bucket for s3) and committed under its key on success, so a staged object older than a few hours belongs
 * to an upload whose process died.
 */
export async function cleanTempUploads(
  { storage }: AppContext,
  { older_than_hours: hours }: { older_than_hours: number },
): Promise<{ removed: number; bytes: number }> {
  return storage.cleanTemp(new Date(Date.now() - hours * 60 * 60 * 1000));
}
