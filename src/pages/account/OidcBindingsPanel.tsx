import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { Confirm } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';
import { useSearchParams } from '../../navigation/navigation.tsx';
import { oidcErrorKey } from '../auth/oidc/oidcReturn.ts';

interface Binding {
  id: string;
  label: string;
  bound: boolean;
  email: string | null;
}

/**
 * Single sign-on in the account area (issue 31): each OpenID provider of the login settings, linked or not.
 * "Link" leaves for the provider (`POST v1/user/oidc/<id>/bind` answers where), which sends the browser back
 * here with `?oidc_bound=<id>` or `?oidc_error=`; "Unlink" asks first.
 */
export function OidcBindingsPanel() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const [bindings, setBindings] = useState<Binding[] | null>(null);
  const [asking, setAsking] = useState<Binding | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);

  const reload = useCallback(async () => {
    setBindings(await httpClient<Binding[]>('v1/user/oidc'));
  }, []);
  useEffect(() => {
    void reload().catch(() => setBindings([]));
  }, [reload]);

  // The provider's answer to a link started here, from the address bar.
  const bound = params.get('oidc_bound');
  const errorKey = oidcErrorKey(params.get('oidc_error'));
  const returned = bound
    ? {
        severity: 'success' as const,
        text: t('auth.oidc.account.bound_done', { label: labelOf(bindings, bound) }),
      }
    : errorKey
      ? { severity: 'error' as const, text: t(errorKey) }
      : null;
  const shown = message ?? returned;

  if (!bindings || bindings.length === 0) return null;

  const bind = async (binding: Binding) => {
    setBusy(true);
    setMessage(null);
    try {
      const { url } = await httpClient<{ url: string }>(`v1/user/oidc/${binding.id}/bind`, {
        method: 'POST',
      });
      window.location.assign(url);
    } catch (error) {
      setBusy(false);
      setMessage({ severity: 'error', text: isHttpError(error) ? error.message : t('auth.errors.network') });
    }
  };
  const unbind = async (binding: Binding) => {
    setBusy(true);
    try {
      await httpClient(`v1/user/oidc/${binding.id}`, { method: 'DELETE' });
      setMessage({ severity: 'success', text: t('auth.oidc.account.unbound_done') });
      await reload();
    } catch (error) {
      setMessage({ severity: 'error', text: isHttpError(error) ? error.message : t('auth.errors.network') });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <Stack spacing={1} component="section" aria-labelledby="oidc-title">
      <Typography id="oidc-title" variant="h6" component="h2">
        {t('auth.oidc.account.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('auth.oidc.account.intro')}
      </Typography>
      <div aria-live="polite">
        {shown ? (
          <Alert severity={shown.severity} role={shown.severity === 'error' ? 'alert' : 'status'}>
            {shown.text}
          </Alert>
        ) : null}
      </div>
      <List dense>
        {bindings.map((binding) => (
          <ListItem
            key={binding.id}
            secondaryAction={
              binding.bound ? (
                <Button color="warning" onClick={() => setAsking(binding)} disabled={isBusy}>
                  {t('auth.oidc.account.unbind')}
                </Button>
              ) : (
                <Button variant="outlined" onClick={() => void bind(binding)} disabled={isBusy}>
                  {t('auth.oidc.account.bind')}
                </Button>
              )
            }
          >
            <ListItemText
              primary={binding.label}
              secondary={
                binding.bound
                  ? binding.email
                    ? t('auth.oidc.account.bound', { email: binding.email })
                    : t('auth.oidc.account.bound_no_email')
                  : t('auth.oidc.account.not_bound')
              }
            />
          </ListItem>
        ))}
      </List>
      <Confirm
        isOpen={asking !== null}
        loading={isBusy}
        title={t('auth.oidc.account.unbind')}
        content={t('auth.oidc.account.confirm_unbind', { label: asking?.label ?? '' })}
        onConfirm={() => void (asking && unbind(asking))}
        onClose={() => setAsking(null)}
      />
    </Stack>
  );
}

function labelOf(bindings: Binding[] | null, id: string): string {
  return bindings?.find((b) => b.id === id)?.label ?? id;
}
