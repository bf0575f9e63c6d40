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
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../providers/httpError.ts';
import { TASKS_KEY, defaultParams, handlersKey, taskApi, type WireTask } from './taskApi.ts';

/** A preview run time in the task's time zone, written as the interface language writes times (24-hour). */
const RUN_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

/**
 * Create or edit a task: name, a registered handler (select), parameters as JSON (pre-filled with the
 * handler's defaults; the server validates them against the handler's schema), the cron expression with its
 * next five run times (previewed by the server as you type), the time zone and the state.
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
  const { t, i18n } = useTranslation();
  const handlers = useQuery({ queryKey: handlersKey(i18n.language), queryFn: taskApi.handlers });
  const [name, setName] = useState(task?.name ?? '');
  const [handler, setHandler] = useState(task?.handler ?? '');
  const [params, setParams] = useState(JSON.stringify(task?.params ?? {}, null, 2));
  const [cron, setCron] = useState(task?.cron ?? '0 3 * * *');
  const [timezone, setTimezone] = useState(task?.timezone ?? 'UTC');
  const [state, setState] = useState(task?.state ?? true);
  const [jsonError, setJsonError] = useState(false);
  const [debounced, setDebounced] = useState({ cron, timezone });
  useEffect(() => {
    const id = setTimeout(() => setDebounced({ cron, timezone }), 300);
    return () => clearTimeout(id);
  }, [cron, timezone]);
  const preview = useQuery({
    queryKey: [...TASKS_KEY, 'preview', debounced.cron, debounced.timezone],
    queryFn: () => taskApi.preview(debounced.cron, debounced.timezone),
    retry: false,
  });
  const save = useMutation({
    mutationFn: () =>
      taskApi.save(task?.id ?? null, {
        name,
        handler,
        params: JSON.parse(params) as Record<string, unknown>,
        cron,
        timezone,
        state,
      }),
    onSuccess: () => onSaved(),
  });
  const errors = save.error && isHttpError(save.error) ? save.error.errors : {};
  const fieldError = (key: string) => errors[key]?.join(' ');
  const paramErrors = Object.entries(errors)
    .filter(([k]) => k.startsWith('params'))
    .map(([k, v]) => `${k.replace(/^params\.?/, '')}: ${v.join(' ')}`);
  const chooseHandler = (next: string) => {
    setHandler(next);
    setParams(JSON.stringify(defaultParams(handlers.data?.find((h) => h.name === next)), null, 2));
  };
  const submit = () => {
    try {
      JSON.parse(params);
      setJsonError(false);
    } catch {
      setJsonError(true);
      return;
    }
    save.mutate();
  };
  const selected = handlers.data?.find((h) => h.name === handler);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{task ? t('system.tasks.actions.edit') : t('system.tasks.actions.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {save.error && !Object.keys(errors).length && <Alert severity="error">{save.error.message}</Alert>}
          <TextField
            label={t('system.tasks.fields.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={!!fieldError('name')}
            helperText={fieldError('name')}
            required
          />
          <TextField
            select
            label={t('system.tasks.fields.handler')}
            value={handlers.data ? handler : ''}
            onChange={(e) => chooseHandler(e.target.value)}
            error={!!fieldError('handler')}
            helperText={fieldError('handler') ?? selected?.label}
            required
          >
            {(handlers.data ?? []).map((h) => (
              <MenuItem key={h.name} value={h.name}>
                {h.name} — {h.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('system.tasks.form.params_json')}
            value={params}
            onChange={(e) => setParams(e.target.value)}
            multiline
            minRows={3}
            error={jsonError || paramErrors.length > 0}
            helperText={
              jsonError
                ? t('system.tasks.form.params_invalid_json')
                : paramErrors.join('; ') || t('system.tasks.form.params_help')
            }
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
          />
          <TextField
            label={t('system.tasks.fields.cron')}
            value={cron}
            onChange={(e) => setCron(e.target.value)}
            error={!!fieldError('cron')}
            helperText={fieldError('cron') ?? t('system.tasks.form.cron_help')}
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
            required
          />
          <TextField
            label={t('system.tasks.fields.timezone')}
            value={timezone}
            onChange={(e) => setTimezone(e.target.value)}
            error={!!fieldError('timezone')}
            helperText={fieldError('timezone')}
          />
          <div>
            <Typography variant="subtitle2">{t('system.tasks.form.next_runs')}</Typography>
            {preview.data ? (
              <ol aria-label={t('system.tasks.form.next_runs')}>
                {preview.data.next_runs.map((r) => (
                  <li key={r}>
                    {new Date(r).toLocaleString(i18n.language, {
                      ...RUN_TIME,
                      timeZone: debounced.timezone,
                    })}
                  </li>
                ))}
              </ol>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t('system.tasks.form.invalid_cron')}
              </Typography>
            )}
          </div>
          <FormControlLabel
            control={<Switch checked={state} onChange={(e) => setState(e.target.checked)} />}
            label={t('system.tasks.fields.state')}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('system.tasks.actions.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {t('system.tasks.actions.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
