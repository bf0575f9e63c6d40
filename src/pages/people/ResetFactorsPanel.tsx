import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Confirm } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';
import { useCan } from '../../providers/useCan.ts';

/**
 * "Reset second factor" for a staff member with an account (issue 31, item 3): after a confirmation,
 * `DELETE v1/user/users/<id>/2fa` removes their authenticator, recovery codes and passkeys (audited; the
 * user is told by mail). Shown to holders of `system.users.users.update` only.
 *
 * @example
 * {data?.user_id ? <ResetFactorsPanel userId={String(data.user_id)} /> : null}
 */
export function ResetFactorsPanel({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const canReset = useCan(`${PERMISSION.usersUsers}.update`);
  const [isAsking, setAsking] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  if (!canReset) return null;

  const reset = async () => {
    setBusy(true);
    try {
      await httpClient(`v1/user/users/${userId}/2fa`, { method: 'DELETE' });
      setResult({ ok: true, message: t('settings.people.staff.mfa_reset_done') });
    } catch (error) {
      setResult({ ok: false, message: isHttpError(error) ? error.message : t('auth.errors.network') });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  return (
    <Paper sx={{ p: 2, mt: 2 }} aria-label={t('settings.people.staff.mfa_reset')} component="section">
      <Stack spacing={1.5} alignItems="flex-start">
        <Typography variant="subtitle1" component="h2">
          {t('settings.people.staff.mfa_reset')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('settings.people.staff.mfa_reset_help')}
        </Typography>
        {result ? (
          <Alert severity={result.ok ? 'success' : 'error'} role={result.ok ? 'status' : 'alert'}>
            {result.message}
          </Alert>
        ) : null}
        <Button variant="outlined" color="warning" onClick={() => setAsking(true)} disabled={isBusy}>
          {t('settings.people.staff.mfa_reset_button')}
        </Button>
      </Stack>
      <Confirm
        isOpen={isAsking}
        loading={isBusy}
        title={t('settings.people.staff.mfa_reset')}
        content={t('settings.people.staff.mfa_reset_confirm')}
        onConfirm={() => void reset()}
        onClose={() => setAsking(false)}
      />
    </Paper>
  );
}
