import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { safeHref } from '../../lib/safeHref.ts';
import { authProvider } from '../../providers/authProvider.ts';

/** Sign-in (placeholder form, to be replaced by the auth work): username, password, remember me. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!username || !password) {
      setError(t(username ? 'validation.password_required' : 'validation.username_required'));
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await authProvider.login({ username, password, remember: form.get('remember') === 'on' });
      navigate(safeHref(params.get('href')) ?? '/dashboard', { replace: true });
    } catch (caught) {
      setError(caught instanceof Error && caught.message ? caught.message : t('app.login.failed'));
      setSubmitting(false);
    }
  };

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(event) => void onSubmit(event)}>
      <Typography variant="h5" component="h1">
        {t('app.login.title')}
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <TextField name="username" label={t('app.login.username')} autoComplete="username" required autoFocus />
      <TextField
        name="password"
        type="password"
        label={t('app.login.password')}
        autoComplete="current-password"
        required
      />
      <FormControlLabel control={<Checkbox name="remember" />} label={t('app.login.remember')} />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {isSubmitting ? t('app.login.submitting') : t('app.login.submit')}
      </Button>
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Link component={RouterLink} to="/register">
          {t('app.login.register')}
        </Link>
        <Link component={RouterLink} to="/reset">
          {t('app.login.reset')}
        </Link>
      </Stack>
    </Stack>
  );
}
