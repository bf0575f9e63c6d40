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
import { formatDateTime } from '../../lib/localeDate.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { useCan } from '../../providers/useCan.ts';
import { rememberIssuedInvitation } from './issuedInvitations.ts';

type Channel = 'email' | 'sms';

interface Issued {
  invitation_url: string;
  invitation_expires_at: string;
}

/**
 * A staff member's registration status and, while unregistered, the invitation: when the current link expires,
 * buttons that send a new link to the member's email or phone (`POST v1/user/staff/<id>/invitation/send`, again
 * to resend), and the link itself right after it is issued or sent (only its hash is stored, so it cannot be
 * shown again) with a button that issues a new one to copy (`POST v1/user/staff/<id>/invitation`).
 */
export function InvitationPanel({
  staffId,
  isRegistered,
  initialUrl = null,
  expiresAt = null,
  email = null,
  phone = null,
}: {
  staffId: string;
  isRegistered: boolean;
  initialUrl?: string | null;
  expiresAt?: string | null;
  email?: string | null;
  phone?: string | null;
}) {
  const { t, i18n } = useTranslation();
  const canUpdate = useCan(`${PERMISSION.usersStaff}.update`);
  const [url, setUrl] = useState<string | null>(initialUrl);
  const [expires, setExpires] = useState<string | null>(expiresAt);
  const [sent, setSent] = useState<{ channel: Channel; to: string } | null>(null);
  const [sentBefore, setSentBefore] = useState<Channel[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [isCopied, setIsCopied] = useState(false);

  const took = (data: Issued) => {
    rememberIssuedInvitation(staffId, data.invitation_url);
    setUrl(data.invitation_url);
    setExpires(data.invitation_expires_at);
    setIsCopied(false);
  };
  const run = async (work: () => Promise<void>) => {
    setError(null);
    setIsBusy(true);
    try {
      await work();
    } catch (e) {
      // A 422 names the field (the member has no such address): its message says more than the summary.
      const fields = (e as { errors?: Record<string, string[] | undefined> }).errors;
      setError(fields?.channel?.[0] ?? (e instanceof Error ? e.message : String(e)));
    } finally {
      setIsBusy(false);
    }
  };
  const issue = () =>
    run(async () => {
      setSent(null);
      took(await httpClient<Issued>(`v1/user/staff/${staffId}/invitation`, { method: 'POST' }));
    });
  const send = (channel: Channel) =>
    run(async () => {
      const data = await httpClient<Issued & { sent_to: string }>(
        `v1/user/staff/${staffId}/invitation/send`,
        {
          method: 'POST',
          body: { channel },
        },
      );
      took(data);
      setSent({ channel, to: data.sent_to });
      setSentBefore((before) => (before.includes(channel) ? before : [...before, channel]));
    });
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setIsCopied(true);
  };
  const time = formatDateTime(expires, i18n.language);
  const isExpired = expires !== null && Date.parse(expires) <= Date.now();
  const contacts: Array<{ channel: Channel; address: string | null }> = [
    { channel: 'email', address: email },
    { channel: 'sms', address: phone },
  ];

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
          <div role="status">
            {sent ? (
              <Alert severity="success">{t('settings.invite.sent', { to: sent.to, time })}</Alert>
            ) : expires ? (
              <Typography variant="body2" data-testid="invitation-expiry">
                {t(isExpired ? 'settings.invite.expired' : 'settings.invite.expires', { time })}
              </Typography>
            ) : null}
          </div>
          {url ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <TextField
                value={url}
                label={t('resources.staff.fields.invitation_url')}
                size="small"
                fullWidth
                slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'invitation-url' } }}
              />
              <Button onClick={() => void copy()} sx={{ alignSelf: { xs: 'flex-start', sm: 'auto' } }}>
                {t(isCopied ? 'settings.people.staff.copied' : 'settings.people.staff.copy')}
              </Button>
            </Stack>
          ) : null}
          {error ? <Alert severity="error">{error}</Alert> : null}
          {canUpdate ? (
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {contacts.map(({ channel, address }) =>
                address ? (
                  <Button
                    key={channel}
                    variant="contained"
                    disabled={isBusy}
                    onClick={() => void send(channel)}
                  >
                    {t(`settings.invite.${sentBefore.includes(channel) ? 'resend' : 'send'}_${channel}`)}
                  </Button>
                ) : null,
              )}
              <Button variant="outlined" disabled={isBusy} onClick={() => void issue()}>
                {t('settings.people.staff.issue')}
              </Button>
            </Stack>
          ) : null}
          {canUpdate && !email && !phone ? (
            <Typography variant="body2" color="text.secondary">
              {t('settings.invite.no_contact')}
            </Typography>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}
