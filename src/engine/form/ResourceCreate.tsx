import { Create } from 'react-admin';
import { hasOperation, type Resource } from '../../../resources/define.ts';
import { draftStore } from './draftStore.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { formPayload } from './formPayload.ts';
import { ResourceForm } from './ResourceForm.tsx';
import { useSaveSuccess } from './useSaveSuccess.ts';

/** The generated create screen. Server field errors (422/409) appear under their inputs. */
export function ResourceCreate({ resource }: { resource: Resource }) {
  const draftKey = draftStore.key(resource.name, undefined);
  // On to the new record: its edit page when it can be edited, else its show page.
  const onSuccess = useSaveSuccess(
    resource.name,
    draftKey,
    hasOperation(resource, 'update') ? 'edit' : 'show',
  );
  const registry = useEngineRegistry();
  return (
    <Create
      resource={resource.name}
      mutationOptions={{ onSuccess }}
      transform={(values: Record<string, unknown>) =>
        formPayload({ resource, values, isEdit: false, registry })
      }
    >
      <ResourceForm resource={resource} isEdit={false} draftKey={draftKey} />
    </Create>
  );
}
