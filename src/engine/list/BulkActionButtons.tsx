import { BulkDeleteButton, BulkUpdateButton } from 'react-admin';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';

/**
 * The buttons of the selected rows' toolbar: enable/disable (`state`: the resource's boolean state field,
 * when the caller may update) and delete. Loaded when the first row is selected (ResourceList's BulkActions).
 */
export function BulkActionButtons({ state, canDelete }: { state?: string; canDelete: boolean }) {
  return (
    <>
      {state ? (
        <>
          <BulkUpdateButton
            label="engine.bulk.enable"
            data={{ [state]: true }}
            mutationMode="pessimistic"
            icon={<CheckCircleOutlineIcon />}
          />
          <BulkUpdateButton
            label="engine.bulk.disable"
            data={{ [state]: false }}
            mutationMode="pessimistic"
            icon={<HighlightOffIcon />}
          />
        </>
      ) : null}
      {canDelete ? <BulkDeleteButton mutationMode="pessimistic" /> : null}
    </>
  );
}
