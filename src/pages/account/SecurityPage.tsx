import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { totpConfirmSchema, totpDisableSchema, type MfaStatus } from '../../../schemas/mfa.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { useAuthForm } from '../auth/useAuthForm.ts';
import { OidcBindingsPanel } from './OidcBindingsPanel.tsx';
import { PasskeysPanel } from './PasskeysPanel.tsx';

interface Enrolment {
  secret: string;
  otpauth_url: string;
  qr_svg: string;
}

/**
 * Two-step verification in the account area (issue 31): set up an authenticator app (QR code drawn by the
 * server, then a first code), see the recovery codes once, turn it off with the password.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<MfaStatus | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const form = useAuthForm();
  const [value, setValue] = useState('');

  const reload = useCallback(async () => {
    try {
      setStatus(await httpClient<MfaStatus>('v1/user/2fa'));
    } catch {
      setLoadError(t('auth.errors.generic'));
    }
  }, [t]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const start = async () => {
    setNotice(null);
    form.setFormError(null);
    try {
      setEnrolment(await httpClient<Enrolment>('v1/user/2fa/totp', { method: 'POST', body: {} }));
      setValue('');
    } catch {
      form.setFormError(t('auth.errors.generic'));
    }
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await form.submit(totpConfirmSchema, { code: value }, async (body) => {
      const data = await httpClient<{ recovery_codes: string[] }>('v1/user/2fa/totp/confirm', {
        method: 'POST',
        body,
      });
      setEnrolment(null);
      setRecoveryCodes(data.recovery_codes);
    });
  };
  const disable = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const isDone = await form.submit(totpDisableSchema, { password: value }, async (body) => {
      await httpClient('v1/user/2fa/totp', { method: 'DELETE', body });
    });
    if (isDone) {
      setValue('');
      setNotice(t('auth.mfa.disabled'));
      await reload();
    }
  };

  const submitButton = (label: string) => (
    <Button
      type="submit"
      variant="contained"
      disabled={form.isSubmitting}
      startIcon={form.isSubmitting ? <CircularProgress size={18} color="inherit" /> : null}
    >
      {label}
    </Button>
  );

  let body;
  if (recoveryCodes) {
    body = (
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('auth.mfa.codes_title')}
        </Typography>
        <Alert severity="warning">{t('auth.mfa.codes_hint')}</Alert>
        <Box
          component="ul"
          aria-label={t('auth.mfa.codes_title')}
          sx={{
            fontFamily: 'monospace',
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
            gap: 1,
            p: 0,
            listStyle: 'none',
          }}
        >
          {recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Box>
        <Button
          variant="contained"
          onClick={() => {
            setRecoveryCodes(null);
            setNotice(t('auth.mfa.enabled'));
            void reload();
          }}
        >
          {t('auth.mfa.codes_done')}
        </Button>
      </Stack>
    );
  } else if (enrolment) {
    body = (
      <Stack
        component="form"
        noValidate
        spacing={2}
        onSubmit={(e) => void confirm(e)}
        aria-busy={form.isSubmitting}
      >
        <Typography>{t('auth.mfa.scan')}</Typography>
        <Box
          component="img"
          src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qr_svg)}`}
          alt={t('auth.mfa.qr_alt')}
          sx={{ width: 200, height: 200, bgcolor: '#fff' }}
        />
        <Typography sx={{ wordBreak: 'break-all' }}>
          {t('auth.mfa.secret')}: <code>{enrolment.secret}</code>
        </Typography>
        <TextField
          {...form.fieldProps('code')}
          label={t('auth.mfa.code')}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
          fullWidth
        />
        <Stack direction="row" spacing={1}>
          {submitButton(t('auth.mfa.confirm'))}
          <Button onClick={() => setEnrolment(null)}>{t('auth.mfa.cancel')}</Button>
        </Stack>
      </Stack>
    );
  } else if (status?.totp) {
    body = (
      <Stack
        component="form"
        noValidate
        spacing={2}
        onSubmit={(e) => void disable(e)}
        aria-busy={form.isSubmitting}
      >
        <Typography>{t('auth.mfa.status_on', { count: status.recovery_codes_left })}</Typography>
        <Typography color="text.secondary">{t('auth.mfa.disable_hint')}</Typography>
        <TextField
          {...form.fieldProps('password')}
          type="password"
          label={t('auth.fields.password')}
          autoComplete="current-password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
          fullWidth
        />
        <Box>{submitButton(t('auth.mfa.disable'))}</Box>
      </Stack>
    );
  } else if (status) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>{t('auth.mfa.status_off')}</Typography>
        <Typography color="text.secondary">{t('auth.mfa.intro')}</Typography>
        <Button variant="contained" onClick={() => void start()}>
          {t('auth.mfa.enable')}
        </Button>
      </Stack>
    );
  } else {
    body = loadError ? (
      <Alert severity="error">{loadError}</Alert>
    ) : (
      <CircularProgress aria-label={t('auth.mfa.title')} />
    );
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 520 }} aria-labelledby="security-title">
      <Typography id="security-title" variant="h5" component="h1">
        {t('auth.mfa.title')}
      </Typography>
      <div aria-live="polite">{notice ? <Alert severity="success">{notice}</Alert> : null}</div>
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      {body}
      <PasskeysPanel onChange={() => void reload()} />
      <OidcBindingsPanel />
    </Stack>
  );
}
