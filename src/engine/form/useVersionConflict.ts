import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { Conflict } from './VersionConflict.tsx';

/**
 * The save side of versions for an edit screen (the generated one and the hand-written role and dictionary
 * screens): `remember` the values a save sends (call it in `transform`), `onError` for the mutation. A stale
 * save's 409 carries the current record: it becomes `conflict` (what the user typed and what was saved
 * elsewhere, for VersionConflict), the cached record becomes the current one so the next save writes over
 * it, and the form keeps what was typed (`keepDirtyValues` while `conflict` is set). Any other error is
 * handled as react-admin would: field errors land on the inputs, anything else is notified.
 *
 * @example
 * const versions = useVersionConflict('roles');
 * <Edit mutationOptions={{ onError: versions.onError, onSuccess }} transform={versions.remember}>
 */
export function useVersionConflict(resource: string) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const typed = useRef<Record<string, unknown>>({});
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const remember = useCallback(<T extends Record<string, unknown>>(values: T): T => {
    typed.current = values;
    return values;
  }, []);
  const onError = useCallback(
    (error: unknown) => {
      const theirs = (error as { body?: { current?: RaRecord } }).body?.current;
      if (theirs) {
        setConflict({ mine: typed.current, theirs });
        queryClient.setQueriesData<RaRecord>({ queryKey: [resource, 'getOne'] }, (old) =>
          old && String(old.id) === String(theirs.id) ? theirs : old,
        );
        notify('engine.versions.conflict_notice', { type: 'warning' });
        return;
      }
      const errors = (error as { body?: { errors?: object } }).body?.errors;
      if (errors && Object.keys(errors).length) return;
      const message = error instanceof Error ? error.message : undefined;
      notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
    },
    [notify, queryClient, resource],
  );
  const clear = useCallback(() => setConflict(null), []);
  return { conflict, remember, onError, clear };
}
