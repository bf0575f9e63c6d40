import { Confirm, useDelete, useNotify, useRedirect, useTranslate } from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { representationField } from '../data/registry.ts';
import { hasTrash, holdersOf, isDetachable, messageOf } from '../trash/trash.ts';

/** Where a delete stands: no dialog, the confirm question, or the holders' dialog of a detachable resource. */
export type DeleteStep = 'closed' | 'confirm' | { holders: number };

/**
 * DeleteRecordButton's dialogs and the delete itself: a chunk of their own, loaded when the button is first
 * pointed at, focused or pressed, so a list shows its rows' delete buttons without them.
 */
export function DeleteRecordDialogs({
  resource,
  record,
  redirect,
  step,
  onStep,
}: {
  resource: Resource;
  record: RaRecord;
  redirect: string | false;
  step: DeleteStep;
  onStep: (step: DeleteStep) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const redirectTo = useRedirect();
  const [deleteOne, { isPending }] = useDelete();
  const name = String(record[representationField(resource)] ?? `#${record.id}`);

  const remove = (detach: boolean) =>
    deleteOne(
      resource.name,
      {
        id: record.id,
        previousData: record,
        ...(detach ? { meta: { query: { detach: '1' } } } : {}),
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          onStep('closed');
          notify(hasTrash(resource) ? 'engine.trash.moved' : 'ra.notification.deleted', {
            type: 'info',
            messageArgs: { name, smart_count: 1 },
          });
          if (redirect) redirectTo(redirect, resource.name);
        },
        onError: (error: unknown) => {
          const holders = holdersOf(error);
          if (!detach && holders !== null && isDetachable(resource)) {
            onStep({ holders });
            return;
          }
          onStep('closed');
          notify(messageOf(error, 'ra.notification.http_error'), { type: 'error' });
        },
      },
    );

  const holders = typeof step === 'object' ? step.holders : 0;
  return (
    <>
      <Confirm
        isOpen={step === 'confirm'}
        loading={isPending}
        title="engine.delete.confirm"
        titleTranslateOptions={{ name }}
        content={null}
        onConfirm={() => void remove(false)}
        onClose={() => onStep('closed')}
      />
      <Confirm
        isOpen={typeof step === 'object'}
        loading={isPending}
        title="engine.trash.holders_title"
        titleTranslateOptions={{ name }}
        content={translate('engine.trash.holders_content', { name, smart_count: holders, count: holders })}
        confirm={translate('engine.trash.detach', { smart_count: holders, count: holders })}
        confirmColor="warning"
        onConfirm={() => void remove(true)}
        onClose={() => onStep('closed')}
      />
    </>
  );
}
