import Button from '@mui/material/Button';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { UndoResult } from '../../../engine/data/dataProvider.ts';
import type { ActivityRow } from './describe.ts';

interface UndoProvider {
  undoOperation(id: string): Promise<{ data: UndoResult }>;
}

/**
 * "Undo" on a log row written by a bulk call or an import (issue 36 item 5): shown when the server says the
 * caller may still undo its operation (`undoable`, server/modules/activities/undo-links.ts). Asks first,
 * then calls `POST v1/operations/<id>/undo` and says what was put back and what was left, with the reasons
 * (a 404/409 of the undo shows its message), and refreshes the log.
 */
export function UndoOperationButton() {
  const row = useRecordContext<ActivityRow>();
  const translate = useTranslate();
  const provider = useDataProvider() as unknown as UndoProvider;
  const notify = useNotify();
  const refresh = useRefresh();
  const [isOpen, setOpen] = useState(false);
  const [isBusy, setBusy] = useState(false);
  if (!row?.operation_id || !row.undoable) return null;
  const operationId = row.operation_id;
  const undo = async () => {
    setBusy(true);
    try {
      const { data } = await provider.undoOperation(operationId);
      const lines = [
        translate('engine.undo_ui.done', { reverted: data.reverted.length, skipped: data.skipped.length }),
        translate('engine.undo_log.reverted', {
          ids: data.reverted.length
            ? data.reverted.map((id) => `#${id}`).join(', ')
            : translate('engine.undo_log.none'),
        }),
        ...(data.skipped.length
          ? [translate('engine.undo_log.skipped'), ...data.skipped.map((s) => `#${s.id}: ${s.reason}`)]
          : []),
      ];
      notify(lines.join('\n'), { type: data.skipped.length ? 'warning' : 'info', multiLine: true });
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
      refresh();
    }
  };
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        disabled={isBusy}
        aria-label={translate('engine.undo_log.undo_label', { id: row.id })}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {translate('engine.undo_log.undo')}
      </Button>
      <Confirm
        isOpen={isOpen}
        loading={isBusy}
        title={translate('engine.undo_log.confirm_title')}
        content={translate('engine.undo_log.confirm_content')}
        confirm={translate('engine.undo_log.undo')}
        onConfirm={() => void undo()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
