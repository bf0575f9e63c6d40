import { Edit, useGetRecordId } from 'react-admin';
import type { Resource } from '../../../../resources/define.ts';
import { DeleteRecordButton } from '../../../engine/form/DeleteRecordButton.tsx';
import { RecordCrumb } from '../../../engine/RecordCrumb.tsx';
import { describeResource } from '../../../engine/data/descriptor.ts';
import { draftStore } from '../../../engine/form/draftStore.ts';
import { formPayload } from '../../../engine/form/formPayload.ts';
import { useSaveSuccess } from '../../../engine/form/useSaveSuccess.ts';
import { DictionaryForm } from './DictionaryForm.tsx';

/** `/settings/dictionaries/{id}`: the type and its entries, saved together (pessimistic, field errors inline). */
export function DictionaryEdit({ resource }: { resource: Resource }) {
  const id = useGetRecordId();
  const draftKey = draftStore.key(resource.name, id);
  const onSuccess = useSaveSuccess(resource.name, draftKey);
  return (
    <Edit
      resource={resource.name}
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess }}
      transform={(values: Record<string, unknown>) => formPayload({ resource, values, isEdit: true })}
    >
      {/* The title and breadcrumb name the dictionary, not "#<id>". */}
      <RecordCrumb resource={describeResource(resource)} />
      <DictionaryForm
        resource={resource}
        isEdit
        draftKey={draftKey}
        toolbarExtra={<DeleteRecordButton resource={describeResource(resource)} redirect="list" />}
      />
    </Edit>
  );
}
