import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '../../../schemas/mfa.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';

/**
 * The caller's passkeys in the account area (issue 31): add one (named), rename or delete each. Registration
 * goes through @simplewebauthn/browser, loaded when the user adds one.
 */
export function PasskeysPanel({ onChange }: { onChange: () => void }) {
  const { t, i18n } = useTranslation();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [isBusy, setBusy] = useState(false);
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  const reload = useCallback(async () => {
    setPasskeys(await httpClient<Passkey[]>('v1/user/passkeys'));
  }, []);
  useEffect(() => {
    void reload().catch(() => setMessage({ severity: 'error', text: t('auth.errors.generic') }));
  }, [reload, t]);

  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ severity: 'success', text: await action() });
      await reload();
      onChange();
    } catch (error) {
      const text = isHttpError(error)
        ? (Object.values(error.errors)[0]?.[0] ?? error.message)
        : t('auth.passkey.cancelled');
      setMessage({ severity: 'error', text: text || t('auth.errors.generic') });
    } finally {
      setBusy(false);
    }
  };

  const add = () =>
    run(async () => {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const optionsJSON = await httpClient<Parameters<typeof startRegistration>[0]['optionsJSON']>(
        'v1/user/passkeys/options',
        { method: 'POST' },
      );
      const response = await startRegistration({ optionsJSON });
      await httpClient('v1/user/passkeys', {
        method: 'POST',
        body: { name: name.trim() || t('auth.passkey.default_name'), response },
      });
      setName('');
      return t('auth.passkey.added');
    });

  return (
    <Stack spacing={2} component="section" aria-labelledby="passkeys-title">
      <Typography id="passkeys-title" variant="h6" component="h2">
        {t('auth.passkey.title')}
      </Typography>
      <Typography color="text.secondary">{t('auth.passkey.intro')}</Typography>
      <div aria-live="polite">
        {message ? <Alert severity={message.severity}>{message.text}</Alert> : null}
      </div>
      {passkeys && passkeys.length === 0 ? <Typography>{t('auth.passkey.none')}</Typography> : null}
      <List aria-labelledby="passkeys-title" disablePadding>
        {(passkeys ?? []).map((passkey) => (
          <ListItem key={passkey.id} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
            {editing?.id === passkey.id ? (
              <>
                <TextField
                  size="small"
                  label={t('auth.passkey.name')}
                  value={editing.name}
                  onChange={(e) => setEditing({ id: passkey.id, name: e.target.value })}
                />
                <Button
                  disabled={isBusy}
                  onClick={() =>
                    void run(async () => {
                      await httpClient(`v1/user/passkeys/${passkey.id}`, {
                        method: 'PATCH',
                        body: { name: editing.name },
                      });
                      setEditing(null);
                      return t('auth.passkey.save');
                    })
                  }
                >
                  {t('auth.passkey.save')}
                </Button>
              </>
            ) : (
              <>
                <ListItemText
                  primary={passkey.name}
                  secondary={`${t('auth.passkey.created_at', { date: date(passkey.created_at) })} · ${
                    passkey.last_used_at
                      ? t('auth.passkey.last_used_at', { date: date(passkey.last_used_at) })
                      : t('auth.passkey.never_used')
                  }`}
                />
                <Button
                  aria-label={`${t('auth.passkey.rename')} ${passkey.name}`}
                  onClick={() => setEditing({ id: passkey.id, name: passkey.name })}
                >
                  {t('auth.passkey.rename')}
                </Button>
                <Button
                  color="error"
                  disabled={isBusy}
                  aria-label={`${t('auth.passkey.delete')} ${passkey.name}`}
                  onClick={() =>
                    void run(async () => {
                      await httpClient(`v1/user/passkeys/${passkey.id}`, { method: 'DELETE' });
                      return t('auth.passkey.deleted');
                    })
                  }
                >
                  {t('auth.passkey.delete')}
                </Button>
              </>
            )}
          </ListItem>
        ))}
      </List>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          label={t('auth.passkey.name')}
          placeholder={t('auth.passkey.default_name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Button variant="contained" disabled={isBusy} onClick={() => void add()}>
          {t('auth.passkey.add')}
        </Button>
      </Stack>
    </Stack>
  );
}
