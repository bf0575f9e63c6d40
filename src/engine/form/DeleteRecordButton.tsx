import { lazy, Suspense, useState } from 'react';
import DeleteIcon from '@mui/icons-material/Delete';
import { Button, useRecordContext } from 'react-admin';
import type { RaRecord } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import type { DeleteStep } from './DeleteRecordDialogs.tsx';

/**
 * The dialogs and the delete call load when the button is first pointed at, focused or pressed (issue 37
 * item 6): a list shows a delete button on every row and needs none of them to paint.
 */
const loadDialogs = () => import('./DeleteRecordDialogs.tsx');
const DeleteRecordDialogs = lazy(() => loadDialogs().then((m) => ({ default: m.DeleteRecordDialogs })));
const prefetchDialogs = () => void loadDialogs().catch(() => undefined);

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
  const [step, setStep] = useState<DeleteStep>('closed');
  // Once opened, the dialogs stay mounted, so they close with MUI's transition.
  const [isWanted, setIsWanted] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button
        label="ra.action.delete"
        color="error"
        onMouseEnter={prefetchDialogs}
        onFocus={prefetchDialogs}
        onClick={(event) => {
          event.stopPropagation();
          setIsWanted(true);
          setStep('confirm');
        }}
      >
        <DeleteIcon />
      </Button>
      {isWanted ? (
        // Nothing in its place while they load: the dialog opens over the page.
        <Suspense fallback={null}>
          <DeleteRecordDialogs
            resource={resource}
            record={record as RaRecord}
            redirect={redirect}
            step={step}
            onStep={setStep}
          />
        </Suspense>
      ) : null}
    </>
  );
}
