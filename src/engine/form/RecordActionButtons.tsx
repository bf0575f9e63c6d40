import { useState } from 'react';
import { Button, Confirm, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ActionHeader, ResourceHeader } from '../../../resources/meta.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { hasPermission } from '../../providers/permissions.ts';
import { usePermissionList } from '../../providers/useCan.ts';
import { representationField } from '../data/registry.ts';
import type { ResourceDescriptor } from '../data/descriptor.ts';
import { messageOf } from '../trash/trash.ts';
import { ActionInputDialog } from './ActionInputDialog.tsx';

/**
 * A button per row action of the record the caller holds (`<permission>.<key>`, issue 35 item 7), for the
 * edit and show toolbars. A `confirm` action asks first in a dialog naming the record; the call sends the
 * record's `version`, and the server's refusal (409, 422, 403) is shown as its message. An action with an
 * `input` opens its form first (ActionInputDialog: the confirm question above the inputs, a 422 under them).
 *
 * @example
 * <RecordActionButtons resource={describeResource(gadgets)} />
 */
export function RecordActionButtons({ resource }: { resource: ResourceDescriptor }) {
  const record = useRecordContext();
  const { permissions } = usePermissionList();
  const actions = Object.entries(resource.options.actions ?? {}).filter(([key]) =>
    hasPermission(permissions, `${resource.permission}.${key}`),
  );
  if (!record || actions.length === 0) return null;
  const name = String(record[representationField(resource)] ?? `#${record.id}`);
  return (
    <>
      {actions.map(([key, action]) => (
        <ActionButton
          key={key}
          resource={resource}
          actionKey={key}
          action={action}
          id={String(record.id)}
          name={name}
          version={record.version as number | undefined}
        />
      ))}
    </>
  );
}

function ActionButton({
  resource,
  actionKey,
  action,
  id,
  name,
  version,
}: {
  resource: ResourceHeader;
  actionKey: string;
  action: ActionHeader;
  id: string;
  name: string;
  version: number | undefined;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [isOpen, setOpen] = useState(false);
  const [isPending, setPending] = useState(false);
  const label = action.label ?? `resources.${resource.name}.actions.${actionKey}`;
  const question =
    typeof action.confirm === 'string'
      ? action.confirm
      : `resources.${resource.name}.actions.${actionKey}_confirm`;

  /** Runs the action; with an input, a refusal is rethrown for the form to put under its fields. */
  const run = async (input?: Record<string, unknown>) => {
    setPending(true);
    try {
      await httpClient(`${resource.endpoint}/${encodeURIComponent(id)}/actions/${actionKey}`, {
        method: 'POST',
        body: { ...(version === undefined ? {} : { version }), ...(input ? { input } : {}) },
      });
      notify('engine.actions.done', {
        type: 'info',
        messageArgs: { action: translate(label), name },
      });
      refresh();
      setOpen(false);
    } catch (error) {
      notify(messageOf(error, 'ra.notification.http_error'), { type: 'error' });
      if (input) throw error;
      setOpen(false);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button
        label={label}
        disabled={isPending}
        onClick={(event) => {
          event.stopPropagation();
          if (action.confirm || action.hasInput) setOpen(true);
          else void run();
        }}
      />
      {action.hasInput ? (
        <ActionInputDialog
          isOpen={isOpen}
          title={translate('engine.actions.confirm_title', { action: translate(label), name })}
          question={action.confirm ? translate(question, { name }) : undefined}
          labelPrefix={`resources.${resource.name}.actions.${actionKey}_input`}
          fields={action.inputFields ?? []}
          submitLabel={label}
          onSubmit={run}
          onClose={() => setOpen(false)}
        />
      ) : action.confirm ? (
        <Confirm
          isOpen={isOpen}
          loading={isPending}
          title="engine.actions.confirm_title"
          titleTranslateOptions={{ action: translate(label), name }}
          content={translate(question, { name })}
          confirm={label}
          onConfirm={() => void run()}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
