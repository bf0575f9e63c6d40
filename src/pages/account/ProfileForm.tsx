import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../../providers/profile.ts';
import { CaptchaButton } from '../auth/CaptchaButton.tsx';
import { useProfileForm } from './useProfileForm.ts';

/** The profile form: username (read-only), name, email and phone; a code field when the address changes. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const page = useProfileForm(profile);
  const { form, values } = page;
  return (
    <Stack
      component="form"
      noValidate
      spacing={1}
      onSubmit={page.onSubmit}
      aria-labelledby="profile-title"
      aria-busy={form.isSubmitting}
      sx={{ maxWidth: 480 }}
    >
      <Typography id="profile-title" variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('auth.profile.title')}
      </Typography>
      <div aria-live="polite">{page.notice ? <Alert severity="success">{page.notice}</Alert> : null}</div>
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      <TextField
        label={t('auth.fields.username')}
        value={profile.username}
        autoComplete="username"
        slotProps={{ htmlInput: { readOnly: true } }}
        helperText=" "
        fullWidth
      />
      <TextField
        {...form.fieldProps('name')}
        label={t('auth.fields.name')}
        autoComplete="name"
        value={values.name}
        onChange={(e) => page.set('name', e.target.value)}
        fullWidth
      />
      <TextField
        {...form.fieldProps('email')}
        type="email"
        label={t('auth.fields.email')}
        autoComplete="email"
        value={values.email}
        onChange={(e) => page.set('email', e.target.value)}
        fullWidth
      />
      <TextField
        {...form.fieldProps('phone')}
        type="tel"
        label={t('auth.fields.phone')}
        autoComplete="tel"
        value={values.phone}
        onChange={(e) => page.set('phone', e.target.value)}
        fullWidth
      />
      {page.needsCode ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('auth.profile.contact_hint')}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              {...form.fieldProps('captcha')}
              label={t('auth.fields.captcha')}
              autoComplete="one-time-code"
              inputMode="numeric"
              value={values.captcha}
              onChange={(e) => page.set('captcha', e.target.value)}
              required
              fullWidth
              slotProps={{ htmlInput: { maxLength: 6 } }}
            />
            <CaptchaButton
              channel={page.codeChannel}
              to={page.codeTo}
              scene="bind"
              onSent={page.onCodeSent}
              onError={page.onCodeError}
            />
          </Stack>
        </>
      ) : null}
      <Button
        type="submit"
        variant="contained"
        disabled={form.isSubmitting}
        startIcon={form.isSubmitting ? <CircularProgress size={18} color="inherit" /> : null}
      >
        {t('auth.profile.submit')}
      </Button>
    </Stack>
  );
}
