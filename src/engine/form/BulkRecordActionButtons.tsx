import { useListContext, useNotify, useTranslate } from 'react-admin';
import type { ActionHeader, ResourceHeader } from '../../../resources/meta.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { ActionControl, labelOf, useHeldActions } from './RecordActionButtons.tsx';

// The bulk bar's action buttons: a module of their own, so they load with the bulk bar
// (list/BulkActionButtons.tsx, on the first selection) and not with every list.

/**
 * A button per `bulk: true` action the caller holds, for the list's bulk bar (desk and phone): a confirm
 * (or the action's input form) naming how many are selected, then `POST <path>/actions/<key>?ids=...`
 * (all or nothing); a toast with the count, the selection cleared and the list refreshed, or the server's
 * refusal as its message.
 *
 * @example
 * <BulkRecordActionButtons resource={describeResource(gadgets)} />
 */
export function BulkRecordActionButtons({ resource }: { resource: ResourceHeader }) {
  const actions = useHeldActions(resource, true);
  return (
    <>
      {actions.map(([key, action]) => (
        <BulkActionButton key={key} resource={resource} actionKey={key} action={action} />
      ))}
    </>
  );
}

function BulkActionButton({
  resource,
  actionKey,
  action,
}: {
  resource: ResourceHeader;
  actionKey: string;
  action: ActionHeader;
}) {
  const { selectedIds = [], onUnselectItems } = useListContext();
  const translate = useTranslate();
  const notify = useNotify();
  const label = labelOf(resource, actionKey, action);
  const count = selectedIds.length;
  return (
    <ActionControl
      resource={resource}
      actionKey={actionKey}
      action={action}
      title={translate('engine.actions.bulk_title', { action: translate(label), count })}
      questionArgs={{ smart_count: count }}
      disabled={count === 0}
      send={async (input) => {
        await httpClient(`${resource.endpoint}/actions/${actionKey}`, {
          method: 'POST',
          query: { ids: selectedIds.map(String).join(',') },
          body: input ? { input } : {},
        });
        notify('engine.actions.bulk_done', {
          type: 'info',
          messageArgs: { action: translate(label), count },
        });
        onUnselectItems();
      }}
    />
  );
}
