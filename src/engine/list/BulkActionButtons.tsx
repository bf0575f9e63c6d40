import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import DeleteIcon from '@mui/icons-material/Delete';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import type { ResourceDescriptor } from '../data/descriptor.ts';
import { BulkEditButton } from '../undo/BulkEditButton.tsx';
import { BulkWriteButton } from '../undo/BulkWriteButton.tsx';
import { BulkRecordActionButtons } from '../form/BulkRecordActionButtons.tsx';

/**
 * The buttons of the selected rows' toolbar: enable/disable (`state`: the resource's boolean state field,
 * when the caller may update), "Edit selected" (`edit`: the resource, when the caller may update) and delete,
 * each answering with a toast that offers "Undo" (undo/UndoNotice), then the resource's `bulk: true` actions
 * the caller holds (`actions`: the resource; form/BulkRecordActionButtons).
 * Loaded when the first row is selected (ResourceList's BulkActions).
 */
export function BulkActionButtons({
  state,
  canDelete,
  edit,
  actions,
}: {
  state?: string;
  canDelete: boolean;
  edit?: ResourceDescriptor;
  actions?: ResourceDescriptor;
}) {
  return (
    <>
      {state ? (
        <>
          <BulkWriteButton
            label="engine.bulk.enable"
            data={{ [state]: true }}
            icon={<CheckCircleOutlineIcon />}
          />
          <BulkWriteButton
            label="engine.bulk.disable"
            data={{ [state]: false }}
            icon={<HighlightOffIcon />}
          />
        </>
      ) : null}
      {edit ? <BulkEditButton resource={edit} /> : null}
      {canDelete ? <BulkWriteButton label="ra.action.delete" icon={<DeleteIcon />} /> : null}
      {actions ? <BulkRecordActionButtons resource={actions} /> : null}
    </>
  );
}
