import EditIcon from '@mui/icons-material/Edit';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MuiButton from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useContext, useId, useMemo, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import {
  Button,
  Form,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
  useTranslateLabel,
} from 'react-admin';
import type { EngineField, ResourceDescriptor } from '../data/descriptor.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { renderInput } from '../fields/inputTable.tsx';
import { formPayload } from '../form/formPayload.ts';
import { schemaDefaults } from '../form/schemaDefaults.ts';
import { findResource } from '../form/schemaFields.ts';
import { zodResolver } from '../form/zodResolver.ts';
import { useIsPhone } from '../list/listLayout.tsx';
import { UndoNotice } from './UndoNotice.tsx';
import { bulkEditableFields } from './bulkEditable.ts';
import { ListSchemasContext } from './listSchemas.ts';

/**
 * "Edit selected" (issue 32 item 3): a dialog to pick fields of the selected rows, set them with the form's
 * own inputs and validation (renderInput, zodResolver over the server's update schema), see how many records
 * will change and confirm; one bulk PATCH, then the toast with "Undo" (UndoNotice). Full screen on a phone.
 */
export function BulkEditButton({ resource }: { resource: ResourceDescriptor }) {
  const translate = useTranslate();
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button label="engine.bulk_edit.open" onClick={() => setOpen(true)}>
        <EditIcon />
      </Button>
      {isOpen ? (
        <BulkEditDialog resource={resource} onClose={() => setOpen(false)} translate={translate} />
      ) : null}
    </>
  );
}

function BulkEditDialog({
  resource,
  onClose,
  translate,
}: {
  resource: ResourceDescriptor;
  onClose: () => void;
  translate: (key: string, options?: Record<string, unknown>) => string;
}) {
  const { selectedIds, onUnselectItems } = useListContext();
  const fromList = useContext(ListSchemasContext);
  const fromScreen = useEngineRegistry();
  const registry = fromList ?? fromScreen;
  const declared = findResource(resource.name, registry);
  const provider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const isPhone = useIsPhone();
  const titleId = useId();
  const fields = useMemo(() => bulkEditableFields(resource), [resource]);
  const [picked, setPicked] = useState<string[]>([]);
  const [isBusy, setBusy] = useState(false);
  const count = selectedIds.length;
  const pickedOnly = (values: FieldValues) =>
    Object.fromEntries(picked.filter((name) => name in values).map((name) => [name, values[name]]));
  const resolver = useMemo(() => {
    if (!declared) return undefined;
    const check = zodResolver({ resource: declared, translate, isEdit: true, registry });
    // Only the picked fields are checked: a field ticked then unticked keeps its value in the form.
    return (values: FieldValues, context: unknown, options: Parameters<typeof check>[2]) =>
      check(Object.fromEntries(picked.map((name) => [name, values[name] ?? null])), context, options);
  }, [declared, translate, registry, picked]);
  const submit = async (values: FieldValues) => {
    if (!declared || !picked.length) return;
    const data = formPayload({ resource: declared, values: pickedOnly(values), isEdit: true, registry });
    setBusy(true);
    try {
      const answer = await provider.updateMany(resource.name, { ids: selectedIds, data });
      const operationIds = (answer as { meta?: { operation_ids?: string[] } }).meta?.operation_ids ?? [];
      const message = translate('engine.undo_ui.updated', { count: answer.data?.length ?? count });
      onUnselectItems();
      onClose();
      notify(<UndoNotice message={message} operationIds={operationIds} />, { autoHideDuration: 10_000 });
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  const toggle = (name: string) =>
    setPicked((now) => (now.includes(name) ? now.filter((n) => n !== name) : [...now, name]));
  const translateLabel = useTranslateLabel();
  const labelOf = (field: EngineField) =>
    translateLabel({ label: field.label, resource: resource.name, source: field.name });
  const formId = `${titleId}-form`;
  // A picked field starts at its declared default (a switch shows what it will send).
  const defaults = useMemo(() => (declared ? schemaDefaults(declared) : {}), [declared]);
  return (
    <Dialog
      open
      onClose={isBusy ? undefined : onClose}
      fullScreen={isPhone}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      // The form sits between the paper and its parts: it lays them out as the paper would (the content
      // scrolls, the buttons stay at the bottom), else on a full-screen phone the content overlaps them.
      slotProps={{ paper: { sx: { '& > form': formLayout } } }}
      // Rendered inside the list's toolbar: its clicks and keys must not reach the rows (React bubbles them
      // through the portal), which would also cancel the form's submission.
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <Form
        id={formId}
        resolver={resolver}
        defaultValues={defaults}
        onSubmit={(values: FieldValues) => void submit(values)}
        record={{}}
      >
        <DialogTitle id={titleId}>{translate('engine.bulk_edit.title', { count })}</DialogTitle>
        <DialogContent>
          <FormGroup role="group" aria-label={translate('engine.bulk_edit.pick')}>
            <Typography variant="subtitle2" component="p">
              {translate('engine.bulk_edit.pick')}
            </Typography>
            {fields.map((field) => (
              <FormControlLabel
                key={field.name}
                control={
                  <Checkbox checked={picked.includes(field.name)} onChange={() => toggle(field.name)} />
                }
                label={labelOf(field)}
              />
            ))}
          </FormGroup>
          {fields
            .filter((field) => picked.includes(field.name))
            .map((field) => renderInput(field, { resource: resource.name, isEdit: true }))}
          <Typography role="status" sx={{ mt: 2 }}>
            {picked.length
              ? translate('engine.bulk_edit.will_change', { smart_count: count, count })
              : translate('engine.bulk_edit.none_picked')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={onClose} disabled={isBusy}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton type="submit" variant="contained" disabled={isBusy || !picked.length}>
            {translate('engine.bulk_edit.confirm', { count })}
          </MuiButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

const formLayout = { display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 } as const;
