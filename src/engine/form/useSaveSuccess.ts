import { useCallback } from 'react';
import { useNotify, useRedirect } from 'react-admin';
import type { RaRecord } from 'react-admin';
import { draftStore } from './draftStore.ts';

/**
 * After a save: "Save successful", drop the draft, then back to the list, or (`after`, for a create) on to
 * the new record's edit or show page.
 */
export function useSaveSuccess(resource: string, draftKey: string, after?: 'edit' | 'show') {
  const notify = useNotify();
  const redirect = useRedirect();
  return useCallback(
    (data: RaRecord) => {
      draftStore.clear(draftKey);
      notify('engine.notification.saved', { type: 'success' });
      if (after && data?.id !== undefined) redirect(after, resource, data.id);
      else redirect('list', resource);
    },
    [notify, redirect, resource, draftKey, after],
  );
}
