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
  /** The version the dialog edits (sent with the PATCH: a save made elsewhere meanwhile is a 409). */
  version?: number;
}

/** The fields the dialog edits, in its order: compared field by field after a stale save. */
const EDITED = ['name', 'parent_id', 'sort', 'state'] as const;

/**
 * Add, edit or move one department. `parents` are the choices for the superior ("0" is the root); the
 * server refuses a cycle with a 422 whose message is shown under the field. A save over a stale version
 * (someone saved the department meanwhile) is a 409 carrying the current department: the dialog then shows,
 * for each field that differs, what was typed and what was saved, with "take theirs", and the next save
 * writes over the current version; nothing typed is lost.
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
  const [theirs, setTheirs] = useState<Record<string, unknown> | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const label = (field: string) => t(`resources.departments.fields.${field}`);
  const shown = (field: string, value: unknown) =>
    field === 'state'
      ? t(value ? 'ra.boolean.true' : 'ra.boolean.false')
      : field === 'parent_id'
        ? String(value) === '0'
          ? t('settings.people.departments.root')
          : (parents.find((p) => p.id === String(value))?.label ?? String(value))
        : String(value);

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
      const current = isHttpError(error) && error.status === 409 && error.errors.version ? error.body : null;
      const record = (current as { data?: Record<string, unknown> } | null)?.data;
      if (record && typeof record.version === 'number') {
        setTheirs(record);
        setDraft((d) => ({ ...d, version: record.version as number }));
        setErrors({});
        setMessage(null);
        return;
      }
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
            {message && !EDITED.some((f) => errors[f]) ? <Alert severity="error">{message}</Alert> : null}
            {theirs ? (
              <Alert severity="warning" role="alert" data-testid="version-conflict">
                {t('engine.versions.conflict_notice')}
                {EDITED.filter((f) => String(theirs[f]) !== String(draft[f])).map((f) => (
                  <Stack key={f} direction="row" spacing={1} alignItems="center" data-field={f}>
                    <span>
                      <strong>{label(f)}</strong>
                      {`: ${t('engine.versions.yours')} ${shown(f, draft[f])} · ${t('engine.versions.theirs')} ${shown(f, theirs[f])}`}
                    </span>
                    <Button size="small" onClick={() => setDraft((d) => ({ ...d, [f]: theirs[f] }))}>
                      {t('engine.versions.take_theirs')}
                    </Button>
                  </Stack>
                ))}
              </Alert>
            ) : null}
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
