import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../providers/httpError.ts';

export interface DepartmentDraft {
  id?: string;
  name: string;
  parent_id: string;
  sort: number;
  state: boolean;
}

/**
 * Add, edit or move one department. `parents` are the choices for the superior ("0" is the root); the
 * server refuses a cycle with a 422 whose message is shown under the field.
 */
export function DepartmentDialog({
  initial,
  parents,
  title,
  onSave,
  onClose,
}: {
  initial: DepartmentDraft;
  parents: { id: string; label: string }[];
  title: string;
  onSave: (draft: DepartmentDraft) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const label = (field: string) => t(`resources.departments.fields.${field}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.name.trim()) {
      setErrors({ name: [t('validation.required')] });
      return;
    }
    setIsSaving(true);
    try {
      await onSave({ ...draft, name: draft.name.trim() });
    } catch (error) {
      setErrors(isHttpError(error) ? error.errors : {});
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="department-dialog-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="department-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {message && Object.keys(errors).length === 0 ? <Alert severity="error">{message}</Alert> : null}
            <TextField
              label={label('name')}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              error={Boolean(errors.name)}
              helperText={errors.name?.join(' ')}
              required
            />
            <TextField
              select
              label={label('parent_id')}
              value={draft.parent_id}
              onChange={(e) => setDraft({ ...draft, parent_id: e.target.value })}
              error={Boolean(errors.parent_id)}
              helperText={errors.parent_id?.join(' ')}
            >
              <MenuItem value="0">{t('settings.people.departments.root')}</MenuItem>
              {parents.map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.label}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              type="number"
              label={label('sort')}
              value={draft.sort}
              onChange={(e) => setDraft({ ...draft, sort: Number(e.target.value) || 0 })}
              slotProps={{ htmlInput: { min: 0 } }}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={draft.state}
                  onChange={(e) => setDraft({ ...draft, state: e.target.checked })}
                />
              }
              label={label('state')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('settings.people.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSaving}>
            {t('settings.people.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
