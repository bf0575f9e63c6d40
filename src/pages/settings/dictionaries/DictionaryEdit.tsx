import { Edit, useGetRecordId } from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { Resource } from '../../../../resources/define.ts';
import { ChangedUnderneathBanner } from '../../../events/ChangedUnderneathBanner.tsx';
import { DeleteRecordButton } from '../../../engine/form/DeleteRecordButton.tsx';
import { RecordCrumb } from '../../../engine/RecordCrumb.tsx';
import { describeResource } from '../../../engine/data/descriptor.ts';
import { draftStore } from '../../../engine/form/draftStore.ts';
import { formPayload } from '../../../engine/form/formPayload.ts';
import { HistoryPanel } from '../../../engine/form/HistoryPanel.tsx';
import { PresenceNotice } from '../../../engine/form/PresenceNotice.tsx';
import { useSaveSuccess } from '../../../engine/form/useSaveSuccess.ts';
import { useVersionConflict } from '../../../engine/form/useVersionConflict.ts';
import { VersionConflict } from '../../../engine/form/VersionConflict.tsx';
import { DictionaryForm } from './DictionaryForm.tsx';

/**
 * `/settings/dictionaries/{id}`: the type and its entries, saved together (pessimistic, field errors inline),
 * with what the generated edit screen has for versions: who else is editing, a change saved elsewhere, the
 * conflict view after a stale save (the version the form was loaded with is sent) and the history panel.
 */
export function DictionaryEdit({ resource }: { resource: Resource }) {
  const id = useGetRecordId();
  const draftKey = draftStore.key(resource.name, id);
  const onSuccess = useSaveSuccess(resource.name, draftKey);
  const versions = useVersionConflict(resource.name);
  return (
    <Edit
      resource={resource.name}
      mutationMode="pessimistic"
      mutationOptions={{
        onSuccess: (data: RaRecord) => {
          versions.clear();
          onSuccess(data);
        },
        onError: versions.onError,
      }}
      transform={(values: Record<string, unknown>) =>
        formPayload({ resource, values: versions.remember(values), isEdit: true })
      }
    >
      <PresenceNotice resource={resource.name} id={id} />
      <ChangedUnderneathBanner resource={resource.name} id={id} onReload={() => draftStore.clear(draftKey)} />
      {/* The title and breadcrumb name the dictionary, not "#<id>". */}
      <RecordCrumb resource={describeResource(resource)} />
      <DictionaryForm
        resource={resource}
        isEdit
        draftKey={draftKey}
        keepTyped={versions.conflict !== null}
        notice={
          versions.conflict ? <VersionConflict resource={resource} conflict={versions.conflict} /> : null
        }
        toolbarExtra={<DeleteRecordButton resource={describeResource(resource)} redirect="list" />}
      />
      <HistoryPanel resource={resource} id={id} />
    </Edit>
  );
}
