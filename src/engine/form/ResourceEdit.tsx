import { Edit, useGetRecordId } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import { RecordCrumb } from '../RecordCrumb.tsx';
import { describeResource } from '../data/descriptor.ts';
import { ChangedUnderneathBanner } from '../../events/ChangedUnderneathBanner.tsx';
import { draftStore } from './draftStore.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { formPayload } from './formPayload.ts';
import { DeleteRecordButton } from './DeleteRecordButton.tsx';
import { ResourceForm } from './ResourceForm.tsx';
import { useSaveSuccess } from './useSaveSuccess.ts';
import { useAbilities } from '../data/useAbilities.ts';
import { useReadableCollections } from './useReadableCollections.ts';

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
  return (
    <Edit
      resource={resource.name}
      mutationMode="pessimistic"
      queryOptions={{ meta }}
      mutationOptions={{ onSuccess, meta }}
      transform={(values: Record<string, unknown>) =>
        formPayload({ resource, values, isEdit: true, registry })
      }
    >
      <RecordCrumb resource={describeResource(resource)} />
      <ChangedUnderneathBanner resource={resource.name} id={id} onReload={() => draftStore.clear(draftKey)} />
      <ResourceForm
        resource={resource}
        isEdit
        draftKey={draftKey}
        toolbarExtra={
          can.delete ? <DeleteRecordButton resource={describeResource(resource)} redirect="list" /> : null
        }
      />
    </Edit>
  );
}
