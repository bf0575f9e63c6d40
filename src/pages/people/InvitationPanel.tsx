import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { useCan } from '../../providers/useCan.ts';
import { rememberIssuedInvitation } from './issuedInvitations.ts';

/**
 * A staff member's registration status and, while unregistered, the invitation link: shown right after it
 * is issued (only its hash is stored, so it cannot be shown again), with a button that issues a new one
 * (`POST v1/user/staff/<id>/invitation`).
 */
export function InvitationPanel({
  staffId,
  isRegistered,
  initialUrl = null,
}: {
  staffId: string;
  isRegistered: boolean;
  initialUrl?: string | null;
}) {
  const { t } = useTranslation();
  const canUpdate = useCan(`${PERMISSION.usersStaff}.update`);
  const [url, setUrl] = useState<string | null>(initialUrl);
  const [error, setError] = useState<string | null>(null);
  const [isCopied, setIsCopied] = useState(false);

  const issue = async () => {
    setError(null);
    try {
      const data = await httpClient<{ invitation_url: string }>(`v1/user/staff/${staffId}/invitation`, {
        method: 'POST',
      });
      rememberIssuedInvitation(staffId, data.invitation_url);
      setUrl(data.invitation_url);
      setIsCopied(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setIsCopied(true);
  };

  return (
    <Paper sx={{ p: 2, mt: 2 }} aria-label={t('settings.people.staff.invitation')} component="section">
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ flexGrow: 1 }}>
          {t('settings.people.staff.invitation')}
        </Typography>
        <Chip
          size="small"
          color={isRegistered ? 'success' : 'default'}
          label={t(isRegistered ? 'settings.people.staff.registered' : 'settings.people.staff.unregistered')}
        />
      </Stack>
      {isRegistered ? null : (
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary">
            {t('settings.people.staff.invitation_help')}
          </Typography>
          {url ? (
            <Stack direction="row" spacing={1}>
              <TextField
                value={url}
                label={t('resources.staff.fields.invitation_url')}
                size="small"
                fullWidth
                slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'invitation-url' } }}
              />
              <Button onClick={() => void copy()}>
                {t(isCopied ? 'settings.people.staff.copied' : 'settings.people.staff.copy')}
              </Button>
            </Stack>
          ) : null}
          {error ? <Alert severity="error">{error}</Alert> : null}
          {canUpdate ? (
            <Button variant="outlined" onClick={() => void issue()} sx={{ alignSelf: 'flex-start' }}>
              {t('settings.people.staff.issue')}
            </Button>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}
