import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useCanBlock, useNotify, useRecordContext } from 'react-admin';
import { draftStore } from './draftStore.ts';

/**
 * Inside a form: restores the draft saved for `draftKey` on mount (the form is then dirty again, so
 * react-admin's warnWhenUnsavedChanges still warns), and saves the values whenever the user changes them.
 * Write-only values (passwords) are never written to storage.
 */
export function DraftKeeper({
  draftKey,
  secretFields,
  needsRecord,
}: {
  draftKey: string;
  secretFields: string[];
  /** Edit forms: restore only once the record is loaded (the form resets to it when it arrives). */
  needsRecord: boolean;
}) {
  const { reset, getValues, formState } = useFormContext();
  const values = useWatch();
  const notify = useNotify();
  const isRestored = useRef(false);
  const record = useRecordContext();
  const isReady = !needsRecord || !!record;

  useEffect(() => {
    if (!isReady || isRestored.current) return;
    const draft = draftStore.read(draftKey);
    if (!draft) {
      isRestored.current = true;
      return;
    }
    // The form resets itself to the record in its own effect, which runs after this child's effect; restore
    // on the next tick so the draft lands on top (and the form counts as dirty).
    const timer = setTimeout(() => {
      isRestored.current = true;
      reset({ ...getValues(), ...draft }, { keepDefaultValues: true });
      notify('engine.draft.restored', { type: 'info' });
    }, 0);
    return () => clearTimeout(timer);
  }, [isReady, draftKey, reset, getValues, notify]);

  const isDirty = formState.isDirty;
  useEffect(() => {
    if (!isRestored.current) return;
    if (!isDirty) {
      draftStore.clear(draftKey);
      return;
    }
    const kept = Object.fromEntries(
      Object.entries(values as Record<string, unknown>).filter(([name]) => !secretFields.includes(name)),
    );
    draftStore.write(draftKey, kept);
  }, [values, isDirty, draftKey, secretFields]);

  // Without a data router react-admin cannot block in-app navigation (the draft covers that); still warn
  // before the tab is closed or reloaded with unsaved changes.
  const canBlock = useCanBlock();
  useEffect(() => {
    if (canBlock || !isDirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [canBlock, isDirty]);

  return null;
}
