import { Link } from 'react-router-dom';
import { Create, useBasename, useNotify, useTranslate } from 'react-admin';
import { hasOperation, type Resource } from '../../../resources/define.ts';
import { draftStore } from './draftStore.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { formPayload } from './formPayload.ts';
import { ResourceForm } from './ResourceForm.tsx';
import { useSaveSuccess } from './useSaveSuccess.ts';

/**
 * The generated create screen. Server field errors (422/409) appear under their inputs; a value held by a
 * record in the trash (409 with `errors.trashed_id`, answered only to who may restore it) also shows a notice
 * with a link to the resource's trash, where that record can be restored.
 */
export function ResourceCreate({ resource }: { resource: Resource }) {
  const draftKey = draftStore.key(resource.name, undefined);
  // On to the new record: its edit page when it can be edited, else its show page.
  const onSuccess = useSaveSuccess(
    resource.name,
    draftKey,
    hasOperation(resource, 'update') ? 'edit' : 'show',
  );
  const onError = useTrashedHolderNotice(resource.name);
  const registry = useEngineRegistry();
  return (
    <Create
      resource={resource.name}
      mutationOptions={{ onSuccess, onError }}
      transform={(values: Record<string, unknown>) =>
        formPayload({ resource, values, isEdit: false, registry })
      }
    >
      <ResourceForm resource={resource} isEdit={false} draftKey={draftKey} />
    </Create>
  );
}

/**
 * The create mutation's `onError`: react-admin's own behaviour (field errors go under their inputs without a
 * notice; any other error is notified with its message), plus a notice linking to the trash when a trashed
 * record holds a unique value.
 */
function useTrashedHolderNotice(name: string) {
  const notify = useNotify();
  const translate = useTranslate();
  const trashPath = `${useBasename()}/${name}/trash`;
  return (error: unknown) => {
    const errors = (error as { body?: { errors?: Record<string, unknown> } } | null)?.body?.errors;
    if (errors && Object.keys(errors).length > 0) {
      if (errors.trashed_id)
        notify(
          <span>
            {translate('engine.trash_held.message')}{' '}
            <Link to={trashPath}>{translate('engine.trash_held.open')}</Link>
          </span>,
          { type: 'warning' },
        );
      return;
    }
    const message = error instanceof Error && error.message ? error.message : 'ra.notification.http_error';
    notify(message, { type: 'error', messageArgs: { _: message } });
  };
}
