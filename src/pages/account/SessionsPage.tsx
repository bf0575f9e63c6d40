import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/localeDate.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';
import { KeyRows } from '../../components/KeyRows.tsx';

/** One live sign-in as `GET v1/user/sessions` answers it. */
export interface Session {
  id: string;
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}

const sessionsKey = ['account', 'sessions'] as const;

/**
 * The caller's live sign-ins (device, address, last seen), the current one first and marked; any other can be
 * ended, which stops its token at once. One column of cards, so it reads the same on a phone.
 */
export function SessionsPage() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const { data, error } = useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => httpClient<Session[]>('v1/user/sessions', { signal }),
  });
  const end = useMutation({
    mutationFn: (id: string) => httpClient(`v1/user/sessions/${id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setNotice(t('auth.sessions.ended'));
      await client.invalidateQueries({ queryKey: sessionsKey });
    },
  });
  const failure = error ?? end.error;
  const sessions = [...(data ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  const when = (at: string) => formatDateTime(at, i18n.language);

  return (
    <Stack component="section" spacing={1} aria-labelledby="sessions-title" sx={{ maxWidth: 720 }}>
      <Typography id="sessions-title" variant="h5" component="h1">
        {t('auth.sessions.title')}
      </Typography>
      <Typography color="text.secondary">{t('auth.sessions.intro')}</Typography>
      <div aria-live="polite">{notice ? <Alert severity="success">{notice}</Alert> : null}</div>
      {failure ? (
        <Alert severity="error" role="alert">
          {isHttpError(failure) ? failure.message : t('auth.errors.network')}
        </Alert>
      ) : null}
      <KeyRows>
        <List aria-labelledby="sessions-title">
          {sessions.map((session) => (
            <ListItem
              key={session.id}
              data-key-row
              divider
              sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', px: 0 }}
            >
              <Stack sx={{ flex: '1 1 260px', minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ overflowWrap: 'anywhere' }}>
                    {session.user_agent || t('auth.sessions.unknown_device')}
                  </Typography>
                  {session.current ? (
                    <Chip size="small" color="primary" label={t('auth.sessions.current')} />
                  ) : null}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {session.ip ? t('auth.sessions.address', { ip: session.ip }) : null}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('auth.sessions.last_seen', { at: when(session.last_seen_at) })} ·{' '}
                  {t('auth.sessions.signed_in', { at: when(session.created_at) })}
                </Typography>
              </Stack>
              {session.current ? null : (
                <Button
                  variant="outlined"
                  color="error"
                  disabled={end.isPending}
                  onClick={() => {
                    setNotice(null);
                    end.mutate(session.id);
                  }}
                  aria-label={`${t('auth.sessions.end')}: ${session.user_agent || t('auth.sessions.unknown_device')}`}
                >
                  {t('auth.sessions.end')}
                </Button>
              )}
            </ListItem>
          ))}
        </List>
      </KeyRows>
      {data && sessions.length <= 1 ? (
        <Typography color="text.secondary">{t('auth.sessions.empty')}</Typography>
      ) : null}
    </Stack>
  );
}
