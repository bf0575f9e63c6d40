import { useCallback } from 'react';
import { useNotify, useRedirect } from 'react-admin';
import type { RaRecord } from 'react-admin';
import { draftStore } from './draftStore.ts';

/** After a save: "Save successful", drop the draft, back to the list. */
export function useSaveSuccess(resource: string, draftKey: string) {
  const notify = useNotify();
  const redirect = useRedirect();
  return useCallback(
    (_data: RaRecord) => {
      draftStore.clear(draftKey);
      notify('engine.notification.saved', { type: 'success' });
      redirect('list', resource);
    },
    [notify, redirect, resource, draftKey],
  );
}
