import { useState } from 'react';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Button,
  Confirm,
  useDelete,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { representationField } from '../data/registry.ts';
import { hasTrash, holdersOf, isDetachable, messageOf } from '../trash/trash.ts';

/**
 * Delete with the spec's "Confirm to delete {name}?" dialog, name being the record's representation. The
 * success toast says the record went to the trash (a resource with a trash, trash/trash.ts). A delete the
 * server refuses shows its message as it comes (a department still used: "... held by N"), except the
 * holders' 409 of a detachable resource (a role staff hold): a second dialog says how many hold it and offers
 * "Remove from N staff and delete" (`?detach=1`).
 */
export function DeleteRecordButton({
  resource,
  redirect = false,
}: {
  resource: Resource;
  redirect?: string | false;
}) {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirectTo = useRedirect();
  const [deleteOne, { isPending }] = useDelete();
  const [step, setStep] = useState<'closed' | 'confirm' | { holders: number }>('closed');
  if (!record) return null;
  const name = String(record[representationField(resource)] ?? `#${record.id}`);

  const remove = (detach: boolean) =>
    deleteOne(
      resource.name,
      {
        id: record.id,
        previousData: record as RaRecord,
        ...(detach ? { meta: { query: { detach: '1' } } } : {}),
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setStep('closed');
          notify(hasTrash(resource) ? 'engine.trash.moved' : 'ra.notification.deleted', {
            type: 'info',
            messageArgs: { name, smart_count: 1 },
          });
          if (redirect) redirectTo(redirect, resource.name);
        },
        onError: (error: unknown) => {
          const holders = holdersOf(error);
          if (!detach && holders !== null && isDetachable(resource)) {
            setStep({ holders });
            return;
          }
          setStep('closed');
          notify(messageOf(error, 'ra.notification.http_error'), { type: 'error' });
        },
      },
    );

  const holders = typeof step === 'object' ? step.holders : 0;
  return (
    <>
      <Button
        label="ra.action.delete"
        color="error"
        onClick={(event) => {
          event.stopPropagation();
          setStep('confirm');
        }}
      >
        <DeleteIcon />
      </Button>
      <Confirm
        isOpen={step === 'confirm'}
        loading={isPending}
        title="engine.delete.confirm"
        titleTranslateOptions={{ name }}
        content={null}
        onConfirm={() => void remove(false)}
        onClose={() => setStep('closed')}
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
        onClose={() => setStep('closed')}
      />
    </>
  );
}
