import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import type { ActionInputField } from '../../../resources/meta.ts';
import { isHttpError } from '../../providers/httpError.ts';

/**
 * The form of a row action with an `input` (issue 35): one input per field of the action's input schema,
 * labelled `resources.<name>.actions.<key>_input.<field>`, the confirm question above them when the action
 * declares one. A required field left empty is refused here; everything else is the server's to say: its
 * 422 puts each message under the field it names. `onSubmit` runs the action; the dialog closes on success.
 *
 * @example
 * <ActionInputDialog isOpen title="Ship: Lamp" labelPrefix="resources.gadgets.actions.ship_input"
 *   fields={[{ name: 'quantity', kind: 'int', required: true }]} submitLabel="Ship"
 *   onSubmit={(input) => run(input)} onClose={() => setOpen(false)} />
 */
export function ActionInputDialog({
  isOpen,
  title,
  question,
  labelPrefix,
  fields,
  submitLabel,
  onSubmit,
  onClose,
}: {
  isOpen: boolean;
  title: string;
  question?: string;
  labelPrefix: string;
  fields: readonly ActionInputField[];
  submitLabel: string;
  /** Runs the action with the input; a rejection with field errors (422) shows them under the fields. */
  onSubmit(input: Record<string, unknown>): Promise<void>;
  onClose(): void;
}) {
  const translate = useTranslate();
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = fields.filter((f) => f.required && f.kind !== 'boolean' && !values[f.name]);
    if (missing.length) {
      setErrors(Object.fromEntries(missing.map((f) => [f.name, translate('ra.validation.required')])));
      return;
    }
    setPending(true);
    try {
      await onSubmit(inputOf(fields, values));
      setValues({});
      setErrors({});
    } catch (error) {
      if (isHttpError(error) && Object.keys(error.errors).length)
        setErrors(
          Object.fromEntries(
            Object.entries(error.errors).map(([name, messages]) => [
              name,
              messages.map((m) => translate(m, { _: m })).join(' '),
            ]),
          ),
        );
    } finally {
      setPending(false);
    }
  };

  const labelOf = (f: ActionInputField) => translate(`${labelPrefix}.${f.name}`, { _: f.name });
  return (
    <Dialog open={isOpen} onClose={onClose} aria-labelledby="action-input-title" fullWidth maxWidth="xs">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="action-input-title">{title}</DialogTitle>
        <DialogContent>
          {question ? <DialogContentText sx={{ mb: 2 }}>{question}</DialogContentText> : null}
          <Stack spacing={2} sx={{ pt: 1 }}>
            {fields.map((f) =>
              f.kind === 'boolean' ? (
                <FormControlLabel
                  key={f.name}
                  label={labelOf(f)}
                  control={
                    <Checkbox
                      checked={values[f.name] === true}
                      onChange={(e) => setValues({ ...values, [f.name]: e.target.checked })}
                    />
                  }
                />
              ) : (
                <TextField
                  key={f.name}
                  name={f.name}
                  label={labelOf(f)}
                  required={f.required}
                  select={f.kind === 'enum'}
                  multiline={f.kind === 'text'}
                  type={
                    f.kind === 'int' || f.kind === 'number' ? 'number' : f.kind === 'date' ? 'date' : 'text'
                  }
                  slotProps={f.kind === 'date' ? { inputLabel: { shrink: true } } : undefined}
                  value={values[f.name] ?? ''}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                  error={Boolean(errors[f.name])}
                  helperText={errors[f.name] ?? ' '}
                >
                  {(f.enumValues ?? []).map((v) => (
                    <MenuItem key={v} value={v}>
                      {v}
                    </MenuItem>
                  ))}
                </TextField>
              ),
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isPending}>
            {translate(submitLabel)}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The values as the input schema takes them: numbers as numbers, empty optional fields left out. */
function inputOf(
  fields: readonly ActionInputField[],
  values: Record<string, string | boolean>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = values[f.name];
    if (f.kind === 'boolean') out[f.name] = value === true;
    else if (value === undefined || value === '') continue;
    else if (f.kind === 'int' || f.kind === 'number')
      out[f.name] = Number.isFinite(Number(value)) ? Number(value) : value;
    else out[f.name] = value;
  }
  return out;
}
