import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import type { Sharing } from './savedViews.ts';

/** What the dialog edits: a view's name, its sharing and the caller's own pin and default. */
export interface ViewForm {
  name: string;
  shared: Sharing;
  role_ids: string[];
  pinned: boolean;
  is_default: boolean;
}

const SHARINGS: Sharing[] = ['private', 'roles', 'everyone'];

/**
 * The save / rename / share dialog of a saved view. `canShare` false (a view the caller does not own) shows
 * only its own choices (pin, default). The role picker lists the roles the caller may read.
 */
export function ViewDialog({
  title,
  initial,
  canShare = true,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: ViewForm;
  canShare?: boolean;
  onSubmit: (form: ViewForm) => Promise<void>;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const titleId = useId();
  const set = (change: Partial<ViewForm>) => setForm((previous) => ({ ...previous, ...change }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.name.trim()) return setError(translate('engine.views.name_required'));
    if (form.shared === 'roles' && form.role_ids.length === 0)
      return setError(translate('engine.views.roles_required'));
    setIsBusy(true);
    try {
      await onSubmit({ ...form, name: form.name.trim() });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : translate('engine.views.failed'));
      setIsBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {canShare ? (
            <TextField
              fullWidth
              margin="dense"
              label={translate('engine.views.name')}
              value={form.name}
              onChange={(event) => set({ name: event.target.value })}
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
          ) : null}
          {canShare ? (
            <FormControl component="fieldset" margin="dense">
              <FormLabel component="legend">{translate('engine.views.sharing')}</FormLabel>
              <RadioGroup
                value={form.shared}
                onChange={(event) => set({ shared: event.target.value as Sharing })}
              >
                {SHARINGS.map((sharing) => (
                  <FormControlLabel
                    key={sharing}
                    value={sharing}
                    control={<Radio />}
                    label={translate(`engine.views.shared.${sharing}`)}
                  />
                ))}
              </RadioGroup>
            </FormControl>
          ) : null}
          {canShare && form.shared === 'roles' ? (
            <RolePicker value={form.role_ids} onChange={(role_ids) => set({ role_ids })} />
          ) : null}
          <FormGroup>
            <FormControlLabel
              control={<Checkbox checked={form.pinned} onChange={(e) => set({ pinned: e.target.checked })} />}
              label={translate('engine.views.pin')}
            />
            <FormControlLabel
              control={
                <Checkbox checked={form.is_default} onChange={(e) => set({ is_default: e.target.checked })} />
              }
              label={translate('engine.views.make_default')}
            />
          </FormGroup>
          {error ? (
            <Typography role="alert" color="error" variant="body2">
              {error}
            </Typography>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isBusy}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A checkbox per role the caller may read (the roles list); none when it may read none. */
function RolePicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const translate = useTranslate();
  const { data = [], error } = useGetList('roles', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const toggle = (id: string, isOn: boolean) =>
    onChange(isOn ? [...value, id] : value.filter((other) => other !== id));
  return (
    <FormControl component="fieldset" margin="dense">
      <FormLabel component="legend">{translate('engine.views.roles')}</FormLabel>
      {error ? <Typography variant="body2">{translate('engine.views.no_roles')}</Typography> : null}
      <FormGroup>
        {data.map((role) => {
          const id = String(role.id);
          return (
            <FormControlLabel
              key={id}
              control={
                <Checkbox checked={value.includes(id)} onChange={(e) => toggle(id, e.target.checked)} />
              }
              label={String(role.name ?? id)}
            />
          );
        })}
      </FormGroup>
    </FormControl>
  );
}
