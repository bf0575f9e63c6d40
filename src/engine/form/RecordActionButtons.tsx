import { lazy, Suspense, useState, type ComponentProps } from 'react';
import Box from '@mui/material/Box';
import { Button, Confirm, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ActionHeader, ResourceHeader } from '../../../resources/meta.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { hasPermission } from '../../providers/permissions.ts';
import { usePermissionList } from '../../providers/useCan.ts';
import { representationField } from '../data/registry.ts';
import type { ResourceDescriptor } from '../data/descriptor.ts';
import { messageOf } from '../trash/trash.ts';
import type { ActionInputDialog as ActionInputDialogType } from './ActionInputDialog.tsx';

const LazyActionInputDialog = lazy(() =>
  import('./ActionInputDialog.tsx').then((m) => ({ default: m.ActionInputDialog })),
);

/**
 * An action's input form downloads when it first opens (a list shows the buttons, not the form), and stays
 * mounted from then on so it closes with MUI's transition.
 */
function ActionInputDialog(props: ComponentProps<typeof ActionInputDialogType>) {
  const [wanted, setWanted] = useState(props.isOpen);
  if (props.isOpen && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LazyActionInputDialog {...props} />
    </Suspense>
  );
}

/** The actions of a resource the caller holds (`<permission>.<key>`), the bulk ones only when `bulk`. */
export function useHeldActions(resource: ResourceHeader, bulk = false): [string, ActionHeader][] {
  const { permissions } = usePermissionList();
  return Object.entries(resource.options.actions ?? {}).filter(
    ([key, action]) => (!bulk || action.bulk) && hasPermission(permissions, `${resource.permission}.${key}`),
  );
}

/**
 * A button per row action of the record the caller holds (`<permission>.<key>`, issue 35 item 7), for the
 * edit and show toolbars, a list row's actions cell and a phone's card. A `confirm` action asks first in a dialog naming the record; the call sends the
 * record's `version`, and the server's refusal (409, 422, 403) is shown as its message. An action with an
 * `input` opens its form first (ActionInputDialog: the confirm question above the inputs, a 422 under them).
 *
 * @example
 * <RecordActionButtons resource={describeResource(gadgets)} />
 */
export function RecordActionButtons({ resource }: { resource: ResourceDescriptor }) {
  const record = useRecordContext();
  const actions = useHeldActions(resource);
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
  const label = labelOf(resource, actionKey, action);
  return (
    // Clicks and keys inside the button and its dialogs (portals, whose events still bubble through React)
    // stay here, so a list row under them neither opens nor moves.
    <Box component="span" sx={{ display: 'contents' }} onClick={stop} onKeyDown={stop}>
      <ActionControl
        resource={resource}
        actionKey={actionKey}
        action={action}
        title={translate('engine.actions.confirm_title', { action: translate(label), name })}
        questionArgs={{ name }}
        send={async (input) => {
          await httpClient(`${resource.endpoint}/${encodeURIComponent(id)}/actions/${actionKey}`, {
            method: 'POST',
            body: { ...(version === undefined ? {} : { version }), ...(input ? { input } : {}) },
          });
          notify('engine.actions.done', { type: 'info', messageArgs: { action: translate(label), name } });
        }}
      />
    </Box>
  );
}

/** The action's label: its own, or `resources.<name>.actions.<key>`. */
export function labelOf(resource: ResourceHeader, actionKey: string, action: ActionHeader): string {
  return action.label ?? `resources.${resource.name}.actions.${actionKey}`;
}

/**
 * The button of one action and its dialog (the action's input form, or a confirm), shared by a record's
 * buttons and the bulk bar (BulkRecordActionButtons.tsx): `send` makes the call and says it is done; a
 * refusal is shown as the server's message and, from an input form, rethrown for the form to put under its
 * fields.
 */
export function ActionControl({
  resource,
  actionKey,
  action,
  title,
  questionArgs,
  disabled = false,
  send,
}: {
  resource: ResourceHeader;
  actionKey: string;
  action: ActionHeader;
  title: string;
  questionArgs: Record<string, unknown>;
  disabled?: boolean;
  send: (input?: Record<string, unknown>) => Promise<void>;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [isOpen, setOpen] = useState(false);
  const [isPending, setPending] = useState(false);
  const label = labelOf(resource, actionKey, action);
  const question = translate(
    typeof action.confirm === 'string'
      ? action.confirm
      : `resources.${resource.name}.actions.${actionKey}_confirm`,
    questionArgs,
  );

  const run = async (input?: Record<string, unknown>) => {
    setPending(true);
    try {
      await send(input);
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
        disabled={isPending || disabled}
        onClick={(event) => {
          event.stopPropagation();
          if (action.confirm || action.hasInput) setOpen(true);
          else void run();
        }}
      />
      {action.hasInput ? (
        <ActionInputDialog
          isOpen={isOpen}
          title={title}
          question={action.confirm ? question : undefined}
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
          title={title}
          content={question}
          confirm={label}
          onConfirm={() => void run()}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

const stop = (event: { stopPropagation(): void }) => event.stopPropagation();
