import { Create } from 'react-admin';
import type { Resource } from '../../../../resources/define.ts';
import { draftStore } from '../../../engine/form/draftStore.ts';
import { formPayload } from '../../../engine/form/formPayload.ts';
import { useSaveSuccess } from '../../../engine/form/useSaveSuccess.ts';
import { DictionaryForm } from './DictionaryForm.tsx';

/** `/settings/dictionaries/create`: a new dictionary type with its entries. */
export function DictionaryCreate({ resource }: { resource: Resource }) {
  const draftKey = draftStore.key(resource.name, undefined);
  const onSuccess = useSaveSuccess(resource.name, draftKey);
  return (
    <Create
      resource={resource.name}
      mutationOptions={{ onSuccess }}
      transform={(values: Record<string, unknown>) => formPayload({ resource, values, isEdit: false })}
    >
      <DictionaryForm resource={resource} isEdit={false} draftKey={draftKey} />
    </Create>
  );
}
