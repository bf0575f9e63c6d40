import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SETTINGS_MENU, pageActions, menuPermissionNames } from '../../../schemas/permissions.ts';
import { formatDateTime } from '../../lib/localeDate.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';
import { hasPermission } from '../../providers/permissions.ts';
import { usePermissionList } from '../../providers/useCan.ts';
import { KeyRows } from '../../components/KeyRows.tsx';

/** A personal API token as `GET v1/user/tokens` answers it (`token`, the secret, only on create). */
export interface ApiToken {
  id: string;
  name: string;
  permissions: string[];
  expires_at: string;
  last_used_at: string | null;
  created_at: string;
  token?: string;
}

const tokensKey = ['account', 'tokens'] as const;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Every permission name of the settings tree (pages and their actions), in tree order. */
function allNames(): string[] {
  return menuPermissionNames().flatMap((page) => [
    page,
    ...pageActions(page, SETTINGS_MENU).map((action) => `${page}.${action}`),
  ]);
}

/**
 * Personal API tokens: create one with a name, an expiry and a subset of the caller's own permissions (the tree
 * offered is filtered to what the caller holds), see its secret once, list and revoke them.
 */
export function TokensPage() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { permissions } = usePermissionList();
  const offered = allNames().filter((name) => hasPermission(permissions, name));
  const [name, setName] = useState('');
  const [expires, setExpires] = useState(inDays(30));
  const [chosen, setChosen] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const { data, error } = useQuery({
    queryKey: tokensKey,
    queryFn: ({ signal }) => httpClient<ApiToken[]>('v1/user/tokens', { signal }),
  });
  const create = useMutation({
    mutationFn: () =>
      httpClient<ApiToken>('v1/user/tokens', {
        method: 'POST',
        body: { name, permissions: chosen, expires_at: new Date(`${expires}T23:59:59`).toISOString() },
      }),
    onSuccess: async (made) => {
      setSecret(made.token ?? null);
      setName('');
      setChosen([]);
      await client.invalidateQueries({ queryKey: tokensKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => httpClient(`v1/user/tokens/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokensKey }),
  });
  const failure = error ?? create.error ?? revoke.error;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSecret(null);
    create.mutate();
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Typography id="tokens-title" variant="h5" component="h1">
        {t('auth.tokens.title')}
      </Typography>
      <Typography color="text.secondary">{t('auth.tokens.intro')}</Typography>
      {failure ? (
        <Alert severity="error" role="alert">
          {isHttpError(failure) ? failure.message : t('auth.errors.network')}
        </Alert>
      ) : null}
      <div aria-live="polite">
        {secret ? (
          <Alert severity="success">
            <Stack spacing={1}>
              <span>{t('auth.tokens.shown_once')}</span>
              <TextField
                label={t('auth.tokens.secret')}
                value={secret}
                slotProps={{ htmlInput: { readOnly: true } }}
                fullWidth
              />
            </Stack>
          </Alert>
        ) : null}
      </div>
      <Stack component="form" noValidate spacing={1} onSubmit={onSubmit} aria-labelledby="tokens-new">
        <Typography id="tokens-new" variant="h6" component="h2">
          {t('auth.tokens.new')}
        </Typography>
        <TextField
          label={t('auth.tokens.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <TextField
          label={t('auth.tokens.expires')}
          type="date"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          required
        />
        <FormGroup aria-label={t('auth.tokens.permissions')}>
          {offered.map((perm) => (
            <FormControlLabel
              key={perm}
              label={perm}
              control={
                <Checkbox
                  checked={chosen.includes(perm)}
                  onChange={(e) =>
                    setChosen(e.target.checked ? [...chosen, perm] : chosen.filter((c) => c !== perm))
                  }
                />
              }
            />
          ))}
        </FormGroup>
        <Button
          type="submit"
          variant="contained"
          disabled={create.isPending}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('auth.tokens.create')}
        </Button>
      </Stack>
      <KeyRows>
        <List aria-labelledby="tokens-title">
          {(data ?? []).map((token) => (
            <ListItem key={token.id} data-key-row divider sx={{ flexWrap: 'wrap', gap: 1, px: 0 }}>
              <Stack sx={{ flex: '1 1 260px', minWidth: 0 }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{token.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('auth.tokens.until', { at: formatDateTime(token.expires_at, i18n.language) })}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {token.permissions.join(', ')}
                </Typography>
              </Stack>
              <Button
                variant="outlined"
                color="error"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(token.id)}
                aria-label={`${t('auth.tokens.revoke')}: ${token.name}`}
              >
                {t('auth.tokens.revoke')}
              </Button>
            </ListItem>
          ))}
        </List>
      </KeyRows>
    </Stack>
  );
}
