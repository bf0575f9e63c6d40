import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignInReturnStatus } from '../AuthFormParts.tsx';
import { safeHref } from '../../../lib/safeHref.ts';
import { MuiThemeRoot } from '../../../theme/MuiThemeRoot.tsx';
import { isHttpError } from '../../../providers/httpError.ts';
import { useNavigation } from '../../../navigation/navigation.tsx';
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
      // The WeChat identity and the account dialogs are MUI's (Tabs, Avatar, Dialog): their theme loads with
      // this page, which only a return from WeChat opens.
      <MuiThemeRoot baseline={false}>
        <WechatRegisterForm
          ticket={ticket}
          onDone={(token) => {
            storeSession(token);
            navigate(safeHref(href) ?? '/dashboard', { replace: true });
          }}
          backTo={backToLogin}
        />
      </MuiThemeRoot>
    );
  }
  return <SignInReturnStatus error={error} label={t('auth.wechat.signing_in')} backTo={backToLogin} />;
}
