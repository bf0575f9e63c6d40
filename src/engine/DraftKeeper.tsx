import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { draftStore } from './draftStore.ts';

/**
 * Inside a form: restores the draft saved for `draftKey` on mount (the form is then dirty again, so
 * react-admin's warnWhenUnsavedChanges still warns), and saves the values whenever the user changes them.
 * Write-only values (passwords) are never written to storage.
 */
export function DraftKeeper({ draftKey, secretFields }: { draftKey: string; secretFields: string[] }) {
  const { reset, getValues, formState } = useFormContext();
  const values = useWatch();
  const notify = useNotify();
  const isRestored = useRef(false);

  useEffect(() => {
    if (isRestored.current) return;
    isRestored.current = true;
    const draft = draftStore.read(draftKey);
    if (!draft) return;
    reset({ ...getValues(), ...draft }, { keepDefaultValues: true });
    notify('engine.draft.restored', { type: 'info' });
  }, [draftKey, reset, getValues, notify]);

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

  return null;
}
