import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordChangeSchema } from '../../../schemas/auth.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { useAuthForm } from '../auth/useAuthForm.ts';

const EMPTY = { old_password: '', password: '', password_confirmation: '' };

/** Password change: the current password and the new one twice; the server signs out the other sessions. */
export function PasswordPage() {
  const { t } = useTranslation();
  const form = useAuthForm();
  const [values, setValues] = useState(EMPTY);
  const [isDone, setDone] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(false);
    const ok = await form.submit(passwordChangeSchema, values, async (body) => {
      await httpClient('v1/user/password', { method: 'POST', body });
    });
    if (ok) {
      setValues(EMPTY);
      setDone(true);
    }
  };

  const field = (name: keyof typeof EMPTY, label: string, autoComplete: string) => (
    <TextField
      {...form.fieldProps(name)}
      type="password"
      label={label}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(e) => setValues({ ...values, [name]: e.target.value })}
      required
      fullWidth
    />
  );

  return (
    <Stack
      component="form"
      noValidate
      spacing={1}
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby="password-title"
      aria-busy={form.isSubmitting}
      sx={{ maxWidth: 480 }}
    >
      <Typography id="password-title" variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('auth.password.title')}
      </Typography>
      <div aria-live="polite">
        {isDone ? <Alert severity="success">{t('auth.password.done')}</Alert> : null}
      </div>
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      {field('old_password', t('auth.fields.old_password'), 'current-password')}
      {field('password', t('auth.fields.new_password'), 'new-password')}
      {field('password_confirmation', t('auth.fields.password_confirmation'), 'new-password')}
      <Button
        type="submit"
        variant="contained"
        disabled={form.isSubmitting}
        startIcon={form.isSubmitting ? <CircularProgress size={18} color="inherit" /> : null}
      >
        {t('auth.password.submit')}
      </Button>
    </Stack>
  );
}
