import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { OutlinedTextField } from '../../components/OutlinedTextField.tsx';
import type { Channel } from '../../../schemas/auth.ts';
import { safeHref } from '../../lib/safeHref.ts';
import { authProvider } from '../../providers/authProvider.ts';
import { clearProfile } from '../../providers/profile.ts';
import { queryClient } from '../../providers/queryClient.ts';
import { channelField } from './CaptchaButton.tsx';
import { ChannelFields } from './ChannelFields.tsx';
import { loadAuthSchemas, preloadAuthSchemas } from './loadAuthSchemas.ts';
import { useAuthForm } from './useAuthForm.ts';
import { withHref } from './withHref.ts';
import { joinInvitation } from '../people/joinInvitation.ts';

/** Registration: username, an email or phone proven by a code (60-second resend countdown), password twice. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useAuthForm();
  const [notice, setNotice] = useState<string | null>(null);
  const [values, setValues] = useState({
    channel: 'email' as Channel,
    username: '',
    to: '',
    captcha: '',
    password: '',
    password_confirmation: '',
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { channel, to, ...rest } = values;
    const body = { ...rest, [channelField(channel)]: to.trim() };
    const isDone = await form.submit(
      () => loadAuthSchemas().then((m) => m.registerSchema),
      body,
      async () => {
        await authProvider.register(body);
        // Joining makes the account staff: the next profile load must see it.
        if (await joinInvitation(params.get('invitation'))) clearProfile(queryClient);
      },
    );
    if (isDone) navigate(safeHref(params.get('href')) ?? '/dashboard', { replace: true });
  };

  return (
    <Stack
      component="form"
      noValidate
      onFocus={preloadAuthSchemas}
      spacing={1}
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby="register-title"
      aria-busy={form.isSubmitting}
    >
      <Typography id="register-title" variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('auth.register.title')}
      </Typography>
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      <OutlinedTextField
        {...form.fieldProps('username')}
        label={t('auth.fields.username')}
        autoComplete="username"
        value={values.username}
        onChange={(e) => setValues({ ...values, username: e.target.value })}
        required
        fullWidth
      />
      <ChannelFields
        form={form}
        scene="register"
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
        label={t('auth.fields.password')}
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
        {t('auth.register.submit')}
      </Button>
      <Link
        component={RouterLink}
        to={withHref('/login', params.get('href'), params.get('invitation'))}
        sx={{ pt: 1 }}
      >
        {t('auth.register.to_login')}
      </Link>
    </Stack>
  );
}
