import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Edit, useGetRecordId, useNotify } from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import { RecordCrumb } from '../RecordCrumb.tsx';
import { describeResource } from '../data/descriptor.ts';
import { ChangedUnderneathBanner } from '../../events/ChangedUnderneathBanner.tsx';
import { draftStore } from './draftStore.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { formPayload } from './formPayload.ts';
import { DeleteRecordButton } from './DeleteRecordButton.tsx';
import { RecordActionButtons } from './RecordActionButtons.tsx';
import { ResourceForm } from './ResourceForm.tsx';
import { useSaveSuccess } from './useSaveSuccess.ts';
import { useAbilities } from '../data/useAbilities.ts';
import { useReadableCollections } from './useReadableCollections.ts';
import { VersionConflict, type Conflict } from './VersionConflict.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { PresenceNotice } from './PresenceNotice.tsx';

/**
 * The generated edit screen. Pessimistic, so server field errors land on the form; only changed fields are
 * PATCHed (the dataProvider diffs against the loaded record); unsaved changes survive leaving the page.
 * The record is loaded with the inline has-many lists the user may read (`include=<key>`), so their rows are
 * edited here too.
 */
export function ResourceEdit({ resource }: { resource: Resource }) {
  const id = useGetRecordId();
  const draftKey = draftStore.key(resource.name, id);
  const onSuccess = useSaveSuccess(resource.name, draftKey);
  const can = useAbilities(resource);
  const registry = useEngineRegistry();
  const include = useReadableCollections(resource).map((c) => c.key);
  // The same meta on the query and the mutation: react-admin keys the cached record by it.
  const meta = include.length ? { include } : undefined;
  const notify = useNotify();
  const queryClient = useQueryClient();
  // What the user typed in the save that turned out stale, and the record as someone else saved it.
  const typed = useRef<Record<string, unknown>>({});
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const onError = (error: unknown) => {
    const theirs = (error as { body?: { current?: RaRecord } }).body?.current;
    if (theirs) {
      setConflict({ mine: typed.current, theirs });
      // The form now edits the current version (the next save writes over it); typed values stay
      // (ResourceForm `keepTyped`).
      queryClient.setQueriesData<RaRecord>({ queryKey: [resource.name, 'getOne'] }, (old) =>
        old && String(old.id) === String(theirs.id) ? theirs : old,
      );
      notify('engine.versions.conflict_notice', { type: 'warning' });
      return;
    }
    // react-admin's own handling otherwise: field errors land on the inputs, anything else is notified.
    const errors = (error as { body?: { errors?: object } }).body?.errors;
    if (errors && Object.keys(errors).length) return;
    const message = error instanceof Error ? error.message : undefined;
    notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
  };
  return (
    <Edit
      resource={resource.name}
      mutationMode="pessimistic"
      queryOptions={{ meta }}
      mutationOptions={{
        onSuccess: (data: RaRecord) => {
          setConflict(null);
          onSuccess(data);
        },
        onError,
        meta,
      }}
      transform={(values: Record<string, unknown>) => {
        typed.current = values;
        return formPayload({ resource, values, isEdit: true, registry });
      }}
    >
      <RecordCrumb resource={describeResource(resource)} />
      <PresenceNotice resource={resource.name} id={id} />
      <ChangedUnderneathBanner resource={resource.name} id={id} onReload={() => draftStore.clear(draftKey)} />
      <ResourceForm
        resource={resource}
        isEdit
        draftKey={draftKey}
        keepTyped={conflict !== null}
        notice={conflict ? <VersionConflict resource={resource} conflict={conflict} /> : null}
        toolbarExtra={
          <>
            <RecordActionButtons resource={describeResource(resource)} />
            {can.delete ? <DeleteRecordButton resource={describeResource(resource)} redirect="list" /> : null}
          </>
        }
      />
      <HistoryPanel resource={resource} id={id} />
    </Edit>
  );
}
