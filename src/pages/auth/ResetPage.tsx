import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { OutlinedTextField } from '../../components/OutlinedTextField.tsx';
import type { Channel } from '../../../schemas/auth.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { ChannelFields } from './ChannelFields.tsx';
import { loadAuthSchemas, preloadAuthSchemas } from './loadAuthSchemas.ts';
import { useAuthForm } from './useAuthForm.ts';
import { withHref } from './withHref.ts';

/** Forgotten password: a code to the account's email or phone, then the new password twice. */
export function ResetPage() {
  const { t } = useTranslation();
  const form = useAuthForm();
  const [params] = useSearchParams();
  const toLogin = withHref('/login', params.get('href'));
  const [notice, setNotice] = useState<string | null>(null);
  const [isDone, setDone] = useState(false);
  const [values, setValues] = useState({
    channel: 'email' as Channel,
    to: '',
    captcha: '',
    password: '',
    password_confirmation: '',
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const ok = await form.submit(
      () => loadAuthSchemas().then((m) => m.resetSchema),
      values,
      async () => {
        await httpClient('v1/user/reset', { method: 'POST', body: values });
      },
    );
    setDone(ok);
  };

  if (isDone) {
    return (
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('auth.reset.title')}
        </Typography>
        <Alert severity="success" role="status">
          {t('auth.reset.done')}
        </Alert>
        <Link component={RouterLink} to={toLogin}>
          {t('auth.reset.to_login')}
        </Link>
      </Stack>
    );
  }

  return (
    <Stack
      component="form"
      noValidate
      onFocus={preloadAuthSchemas}
      spacing={1}
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby="reset-title"
      aria-busy={form.isSubmitting}
    >
      <Typography id="reset-title" variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('auth.reset.title')}
      </Typography>
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      <ChannelFields
        form={form}
        scene="reset"
        channel={values.channel}
        to={values.to}
        captcha={values.captcha}
        notice={notice}
        onNotice={setNotice}
        onChange={(next) => setValues({ ...values, ...next })}
      />
      <OutlinedTextField
        {...form.fieldProps('password')}
        type="password"
        label={t('auth.fields.new_password')}
        autoComplete="new-password"
        value={values.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
        required
        fullWidth
      />
      <OutlinedTextField
        {...form.fieldProps('password_confirmation')}
        type="password"
        label={t('auth.fields.password_confirmation')}
        autoComplete="new-password"
        value={values.password_confirmation}
        onChange={(e) => setValues({ ...values, password_confirmation: e.target.value })}
        required
        fullWidth
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={form.isSubmitting}
        startIcon={form.isSubmitting ? <CircularProgress size={18} color="inherit" /> : null}
      >
        {t('auth.reset.submit')}
      </Button>
      <Link component={RouterLink} to={toLogin} sx={{ pt: 1 }}>
        {t('auth.reset.to_login')}
      </Link>
    </Stack>
  );
}
