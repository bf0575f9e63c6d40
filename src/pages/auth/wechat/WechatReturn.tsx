import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeHref } from '../../../lib/safeHref.ts';
import { isHttpError } from '../../../providers/httpError.ts';
import { AppLink, useNavigation } from '../../../routes/navigation.tsx';
import { WechatRegisterForm } from './WechatRegisterForm.tsx';
import { isTicket, storeSession, wechatLogin } from './wechatApi.ts';
import type { WechatTicket, WechatToken } from './wechatApi.ts';

/**
 * The /login page when WeChat has sent the user back with `code` and `state`: finishes the sign-in, or shows the
 * new-account / link-account form for a WeChat user who is not linked yet, or the reason it failed.
 *
 * @example
 * if (params.get('code') && params.get('state')) return <WechatReturn code={..} state={..} href={..} />;
 */
export function WechatReturn({ code, state, href }: { code: string; state: string; href: string | null }) {
  const { t } = useTranslation();
  const { navigate } = useNavigation();
  const [ticket, setTicket] = useState<WechatTicket | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    const finish = (token: WechatToken) => {
      storeSession(token);
      navigate(safeHref(href) ?? '/dashboard', { replace: true });
    };
    wechatLogin({ code, state }).then(
      (result) => {
        if (!isCurrent) return;
        if (isTicket(result)) setTicket(result);
        else finish(result);
      },
      (err: unknown) => {
        if (isCurrent) setError(isHttpError(err) ? err.message : t('auth.errors.network'));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [code, state, href, navigate, t]);

  const backToLogin = `/login${safeHref(href) ? `?href=${encodeURIComponent(href!)}` : ''}`;
  if (ticket) {
    return (
      <WechatRegisterForm
        ticket={ticket}
        onDone={(token) => {
          storeSession(token);
          navigate(safeHref(href) ?? '/dashboard', { replace: true });
        }}
        backTo={backToLogin}
      />
    );
  }
  if (error) {
    return (
      <Stack spacing={2}>
        <Alert severity="error" role="alert">
          {error}
        </Alert>
        <Link component={AppLink} to={backToLogin} replace>
          {t('auth.wechat.back_to_login')}
        </Link>
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
      <CircularProgress size={24} />
      <Typography>{t('auth.wechat.signing_in')}</Typography>
    </Stack>
  );
}
