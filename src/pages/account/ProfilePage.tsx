import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { profileUpdateSchema } from '../../../schemas/auth.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { USER_INCLUDE, clearProfile, profileKey } from '../../providers/profile.ts';
import type { Profile } from '../../providers/profile.ts';
import { CaptchaButton } from '../auth/CaptchaButton.tsx';
import { useAuthForm } from '../auth/useAuthForm.ts';
import { WechatIdentityCard } from '../auth/wechat/WechatIdentityCard.tsx';

/** The signed-in user's name, email and phone; a new email or phone needs a code sent to it. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { data, isPending, isError } = useQuery<Profile>({
    queryKey: profileKey(USER_INCLUDE),
    queryFn: ({ signal }) =>
      httpClient<Profile>('v1/user/profile', { query: { include: USER_INCLUDE }, signal }),
  });
  if (isPending) return <CircularProgress aria-label={t('auth.profile.title')} />;
  if (isError || !data) {
    return (
      <Alert severity="error" role="alert">
        {t('auth.errors.generic')}
      </Alert>
    );
  }
  return (
    <>
      <ProfileForm profile={data} />
      <WechatIdentityCard />
    </>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useAuthForm();
  const [notice, setNotice] = useState<string | null>(null);
  const [values, setValues] = useState({
    name: profile.name ?? '',
    email: profile.email ?? '',
    phone: profile.phone ?? '',
    captcha: '',
  });
  const isEmailChanged = values.email.trim() !== (profile.email ?? '') && values.email.trim() !== '';
  const isPhoneChanged = values.phone.trim() !== (profile.phone ?? '') && values.phone.trim() !== '';
  const needsCode = isEmailChanged || isPhoneChanged;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body: Record<string, string> = { name: values.name };
    if (isEmailChanged) body.email = values.email.trim();
    if (isPhoneChanged) body.phone = values.phone.trim();
    if (needsCode) body.captcha = values.captcha.trim();
    setNotice(null);
    const isDone = await form.submit(profileUpdateSchema, body, async () => {
      await httpClient('v1/user/profile', { method: 'POST', body });
    });
    if (isDone) {
      clearProfile(client);
      setValues({ ...values, captcha: '' });
      setNotice(t('auth.profile.saved'));
    }
  };

  return (
    <Stack
      component="form"
      noValidate
      spacing={1}
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby="profile-title"
      aria-busy={form.isSubmitting}
      sx={{ maxWidth: 480 }}
    >
      <Typography id="profile-title" variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('auth.profile.title')}
      </Typography>
      <div aria-live="polite">{notice ? <Alert severity="success">{notice}</Alert> : null}</div>
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
        onChange={(e) => setValues({ ...values, name: e.target.value })}
        fullWidth
      />
      <TextField
        {...form.fieldProps('email')}
        type="email"
        label={t('auth.fields.email')}
        autoComplete="email"
        value={values.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
        fullWidth
      />
      <TextField
        {...form.fieldProps('phone')}
        type="tel"
        label={t('auth.fields.phone')}
        autoComplete="tel"
        value={values.phone}
        onChange={(e) => setValues({ ...values, phone: e.target.value })}
        fullWidth
      />
      {needsCode ? (
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
              onChange={(e) => setValues({ ...values, captcha: e.target.value })}
              required
              fullWidth
              slotProps={{ htmlInput: { maxLength: 6 } }}
            />
            <CaptchaButton
              channel={isEmailChanged ? 'email' : 'sms'}
              to={isEmailChanged ? values.email : values.phone}
              scene="bind"
              onSent={setNotice}
              onError={({ field, message }) => {
                setNotice(null);
                if (field) form.setErrors({ [field]: [message] });
                else form.setFormError(message);
              }}
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
