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
import { useTranslation } from 'react-i18next';
import { NextRuns } from './NextRuns.tsx';
import type { WireTask } from './taskApi.ts';
import { useTaskForm } from './useTaskForm.ts';

const MONOSPACE = { htmlInput: { style: { fontFamily: 'monospace' } } };

/**
 * Create or edit a task: name, a registered handler (select), parameters as JSON (pre-filled with the
 * handler's defaults; the server validates them against the handler's schema), the cron expression with its
 * next five run times (previewed by the server as you type), the time zone and the state. The view of
 * useTaskForm.
 */
export function TaskFormDialog({
  task,
  onClose,
  onSaved,
}: {
  task: WireTask | null;
  onClose: () => void;
  onSaved: () => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const form = useTaskForm(task, onSaved);
  const { fieldError } = form;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{task ? t('system.tasks.actions.edit') : t('system.tasks.actions.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {form.formError && <Alert severity="error">{form.formError}</Alert>}
          <TextField
            label={t('system.tasks.fields.name')}
            value={form.name}
            onChange={(e) => form.setName(e.target.value)}
            error={!!fieldError('name')}
            helperText={fieldError('name')}
            required
          />
          <TextField
            select
            label={t('system.tasks.fields.handler')}
            value={form.handlers ? form.handler : ''}
            onChange={(e) => form.chooseHandler(e.target.value)}
            error={!!fieldError('handler')}
            helperText={fieldError('handler') ?? form.selected?.label}
            required
          >
            {(form.handlers ?? []).map((h) => (
              <MenuItem key={h.name} value={h.name}>
                {h.name} — {h.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('system.tasks.form.params_json')}
            value={form.params}
            onChange={(e) => form.setParams(e.target.value)}
            multiline
            minRows={3}
            error={form.jsonError || form.paramErrors.length > 0}
            helperText={
              form.jsonError
                ? t('system.tasks.form.params_invalid_json')
                : form.paramErrors.join('; ') || t('system.tasks.form.params_help')
            }
            slotProps={MONOSPACE}
          />
          <TextField
            label={t('system.tasks.fields.cron')}
            value={form.cron}
            onChange={(e) => form.setCron(e.target.value)}
            error={!!fieldError('cron')}
            helperText={fieldError('cron') ?? t('system.tasks.form.cron_help')}
            slotProps={MONOSPACE}
            required
          />
          <TextField
            label={t('system.tasks.fields.timezone')}
            value={form.timezone}
            onChange={(e) => form.setTimezone(e.target.value)}
            error={!!fieldError('timezone')}
            helperText={fieldError('timezone')}
          />
          <NextRuns runs={form.nextRuns} timeZone={form.previewZone} />
          <FormControlLabel
            control={<Switch checked={form.state} onChange={(e) => form.setState(e.target.checked)} />}
            label={t('system.tasks.fields.state')}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('system.tasks.actions.cancel')}</Button>
        <Button variant="contained" onClick={form.submit} disabled={form.isSaving}>
          {t('system.tasks.actions.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
