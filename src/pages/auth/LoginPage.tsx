import { Suspense, lazy, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, PublicLoading, TextField } from '../../public-ui/controls.tsx';
import { safeHref } from '../../lib/safeHref.ts';
import { sessionChanged, signIn, type MfaChallenge } from '../../providers/session.ts';
import { joinInvitation } from '../people/joinInvitation.ts';
import { isPlainLogin } from '../../../schemas/loginBounds.ts';
import { loadAuthSchemas } from './loadAuthSchemas.ts';
import { AuthFormFrame } from './AuthFormParts.tsx';
import { useAuthForm } from './useAuthForm.ts';
import { withHref } from './withHref.ts';
import { PasskeyButton } from './PasskeyButton.tsx';
import { AppLink, useNavigation, useSearchParams } from '../../navigation/navigation.tsx';
import { WechatButton } from './wechat/WechatButton.tsx';
import { OidcButtons } from './oidc/OidcButtons.tsx';
import { oidcErrorKey } from './oidc/oidcReturn.ts';

// Only a return from an OpenID provider (oidc_ticket in the address) shows it.
const OidcReturn = lazy(() => import('./oidc/OidcReturn.tsx').then((m) => ({ default: m.OidcReturn })));

// Only a return from WeChat (code + state in the address) shows it; it brings its own form and schema.
const WechatReturn = lazy(() =>
  import('./wechat/WechatReturn.tsx').then((m) => ({ default: m.WechatReturn })),
);

// Only an account with a second factor (or one that must enrol one) sees them, after its password was right.
const MfaStep = lazy(() => import('./MfaStep.tsx').then((m) => ({ default: m.MfaStep })));
const EnrolStep = lazy(() => import('./EnrolStep.tsx').then((m) => ({ default: m.EnrolStep })));

/** Sign-in with a username, email or phone number; returns to the safe `href` or the dashboard. */
export function LoginPage() {
  const { t } = useTranslation();
  const { navigate } = useNavigation();
  const params = useSearchParams();
  const form = useAuthForm();
  const oidcTicket = params.get('oidc_ticket');
  const oidcError = oidcErrorKey(params.get('oidc_error'));
  const [values, setValues] = useState({ username: '', password: '', remember: false });
  const invitation = params.get('invitation');
  // Set when the account has a second factor: the password was right, the code comes next (MfaStep).
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);

  const enter = async () => {
    // An existing account opening an invitation link joins the invited staff record after signing in.
    if (await joinInvitation(invitation)) sessionChanged();
    navigate(safeHref(params.get('href')) ?? '/dashboard', { replace: true });
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let pending: MfaChallenge | null = null;
    const isDone = await form.submit(
      () => loadAuthSchemas().then((m) => m.loginSchema),
      values,
      async (data) => {
        pending = await signIn(data);
      },
      // Filled-in fields go as they are (the server trims the username); only a form that needs a message
      // loads the schema (and zod) for it.
      { asIs: isPlainLogin(values) ? values : undefined },
    );
    if (!isDone) return;
    if (pending) setChallenge(pending);
    else await enter();
  };
  // WeChat sends the user back here with code + state (issue 7).
  const wechatCode = params.get('code');
  const wechatState = params.get('state');
  if (wechatCode && wechatState) {
    return (
      <Suspense fallback={<PublicLoading />}>
        <WechatReturn code={wechatCode} state={wechatState} href={params.get('href')} />
      </Suspense>
    );
  }

  if (oidcTicket && !challenge) {
    return (
      <Suspense fallback={<PublicLoading />}>
        <OidcReturn
          ticket={oidcTicket}
          onDone={() => void enter()}
          onChallenge={setChallenge}
          backTo={withHref('/login', params.get('href'))}
        />
      </Suspense>
    );
  }

  if (challenge) {
    return (
      <Suspense fallback={<PublicLoading />}>
        {challenge.enrolment_token ? (
          <EnrolStep challenge={challenge} onDone={enter} onRestart={() => setChallenge(null)} />
        ) : (
          <MfaStep challenge={challenge} onDone={enter} onRestart={() => setChallenge(null)} />
        )}
      </Suspense>
    );
  }

  return (
    <AuthFormFrame
      id="login"
      title={t('auth.login.title')}
      submitLabel={t('auth.login.submit')}
      // A failed OpenID sign-in comes back with its reason in the address (until the next submit).
      form={{ ...form, formError: form.formError ?? (oidcError ? t(oidcError) : null) }}
      onSubmit={onSubmit}
      // A filled-in form is sent without the schema (isPlainLogin): focusing it does not fetch zod.
      preloadSchemas={false}
      footer={
        <>
          <PasskeyButton
            label={t('auth.passkey.sign_in')}
            remember={values.remember}
            onDone={enter}
            onError={form.setFormError}
          />
          <WechatButton href={params.get('href')} remember={values.remember} onError={form.setFormError} />
          <OidcButtons href={params.get('href')} remember={values.remember} />
          <div className="pu-row-between">
            <AppLink className="pu-link" to={withHref('/register', params.get('href'), invitation)}>
              {t('auth.login.to_register')}
            </AppLink>
            <AppLink className="pu-link" to={withHref('/reset', params.get('href'))}>
              {t('auth.login.to_reset')}
            </AppLink>
          </div>
        </>
      }
    >
      <TextField
        {...form.fieldProps('username')}
        label={t('auth.fields.account')}
        autoComplete="username"
        value={values.username}
        onChange={(e) => setValues({ ...values, username: e.target.value })}
        required
      />
      <TextField
        {...form.fieldProps('password')}
        type="password"
        label={t('auth.fields.password')}
        autoComplete="current-password"
        value={values.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
        required
      />
      <Checkbox
        name="remember"
        checked={values.remember}
        onChange={(e) => setValues({ ...values, remember: e.target.checked })}
        label={t('auth.fields.remember')}
      />
    </AuthFormFrame>
  );
}
