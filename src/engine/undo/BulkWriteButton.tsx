import type { ReactElement } from 'react';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { UndoNotice } from './UndoNotice.tsx';

/**
 * A bulk action of the selected rows' toolbar that answers with our toast and its "Undo" (UndoNotice):
 * `data` given, a bulk PATCH of it; none, a bulk DELETE (to the trash); each after a confirmation.
 * Example: `<BulkWriteButton label="engine.bulk.disable" data={{ state: false }} icon={<Off />} />`.
 */
export function BulkWriteButton({
  label,
  data,
  icon,
}: {
  label: string;
  data?: Record<string, unknown>;
  icon: ReactElement;
}) {
  const { resource, selectedIds, onUnselectItems } = useListContext();
  const provider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [isAsking, setAsking] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const isDelete = data === undefined;
  const run = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const answer = isDelete
        ? await provider.deleteMany(resource, { ids: selectedIds })
        : await provider.updateMany(resource, { ids: selectedIds, data });
      const operationIds = ((answer as { meta?: { operation_ids?: string[] } }).meta?.operation_ids ??
        []) as string[];
      const count = answer.data?.length ?? selectedIds.length;
      const message = translate(isDelete ? 'engine.undo_ui.trashed' : 'engine.undo_ui.updated', { count });
      onUnselectItems();
      notify(<UndoNotice message={message} operationIds={operationIds} />, { autoHideDuration: 10_000 });
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <>
      <Button
        label={label}
        disabled={isBusy}
        onClick={() => setAsking(true)}
        color={isDelete ? 'error' : 'primary'}
      >
        {icon}
      </Button>
      <Confirm
        isOpen={isAsking}
        title={isDelete ? 'ra.message.bulk_delete_title' : 'ra.message.bulk_update_title'}
        content={isDelete ? 'ra.message.bulk_delete_content' : 'ra.message.bulk_update_content'}
        translateOptions={{ smart_count: selectedIds.length, name: resource }}
        onConfirm={() => void run()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
