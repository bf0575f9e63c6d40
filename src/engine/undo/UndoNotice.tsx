import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useCloseNotification, useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { UndoResult } from '../data/dataProvider.ts';

interface UndoProvider {
  undoOperation(id: string): Promise<{ data: UndoResult }>;
}

/**
 * The success toast of a bulk action or an import, with "Undo" (issue 36 item 5): undoes its operations
 * (`POST v1/operations/<id>/undo`), then says what was reverted and what was left as it is, and refreshes
 * the list. Example: `notify(<UndoNotice message={text} operationIds={ids} />, { autoHideDuration: 10000 })`.
 */
export function UndoNotice({ message, operationIds }: { message: string; operationIds: string[] }) {
  const translate = useTranslate();
  const provider = useDataProvider() as unknown as UndoProvider;
  const notify = useNotify();
  const refresh = useRefresh();
  const close = useCloseNotification();
  const [isBusy, setBusy] = useState(false);
  const undo = async () => {
    setBusy(true);
    const reverted: string[] = [];
    const skipped: UndoResult['skipped'] = [];
    try {
      for (const id of operationIds) {
        const { data } = await provider.undoOperation(id);
        reverted.push(...data.reverted);
        skipped.push(...data.skipped);
      }
      close();
      const summary = translate('engine.undo_ui.done', {
        reverted: reverted.length,
        skipped: skipped.length,
      });
      const reasons = skipped.map((s) => `#${s.id}: ${s.reason}`).join('\n');
      notify(reasons ? `${summary}\n${reasons}` : summary, {
        type: skipped.length ? 'warning' : 'info',
        multiLine: Boolean(reasons),
      });
    } catch (error) {
      close();
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      refresh();
    }
  };
  return (
    <Alert
      severity="success"
      variant="filled"
      role="status"
      action={
        operationIds.length ? (
          <Button color="inherit" size="small" disabled={isBusy} onClick={() => void undo()}>
            {translate('engine.undo_ui.undo')}
          </Button>
        ) : null
      }
    >
      {message}
    </Alert>
  );
}
