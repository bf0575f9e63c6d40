import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../public-ui/controls.tsx';
import type { Channel } from '../../../schemas/auth.ts';
import { safeHref } from '../../lib/safeHref.ts';
import { registerAccount, sessionChanged } from '../../providers/session.ts';
import { channelField } from './CaptchaButton.tsx';
import { ChannelFields } from './ChannelFields.tsx';
import { loadAuthSchemas } from './loadAuthSchemas.ts';
import { AuthFormFrame, PasswordPairFields } from './AuthFormParts.tsx';
import { useAuthForm } from './useAuthForm.ts';
import { withHref } from './withHref.ts';
import { AppLink, useNavigation, useSearchParams } from '../../navigation/navigation.tsx';
import { joinInvitation } from '../people/joinInvitation.ts';

/** Registration: username, an email or phone proven by a code (60-second resend countdown), password twice. */
export function RegisterPage() {
  const { t } = useTranslation();
  const { navigate } = useNavigation();
  const params = useSearchParams();
  const form = useAuthForm();
  const [notice, setNotice] = useState<string | null>(null);
  const [values, setValues] = useState({
    channel: 'email' as Channel,
    username: '',
    to: '',
    captcha: '',
    password: '',
    password_confirmation: '',
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { channel, to, ...rest } = values;
    const body = { ...rest, [channelField(channel)]: to.trim() };
    const isDone = await form.submit(
      () => loadAuthSchemas().then((m) => m.registerSchema),
      body,
      async () => {
        await registerAccount(body);
        // Joining makes the account staff: the next profile load must see it.
        if (await joinInvitation(params.get('invitation'))) sessionChanged();
      },
    );
    if (isDone) navigate(safeHref(params.get('href')) ?? '/dashboard', { replace: true });
  };

  return (
    <AuthFormFrame
      id="register"
      title={t('auth.register.title')}
      submitLabel={t('auth.register.submit')}
      form={form}
      onSubmit={onSubmit}
      footer={
        <>
          <div className="pu-pt">
            <AppLink
              className="pu-link"
              to={withHref('/login', params.get('href'), params.get('invitation'))}
            >
              {t('auth.register.to_login')}
            </AppLink>
          </div>
        </>
      }
    >
      <TextField
        {...form.fieldProps('username')}
        label={t('auth.fields.username')}
        autoComplete="username"
        value={values.username}
        onChange={(e) => setValues({ ...values, username: e.target.value })}
        required
      />
      <ChannelFields
        form={form}
        scene="register"
        channel={values.channel}
        to={values.to}
        captcha={values.captcha}
        notice={notice}
        onNotice={setNotice}
        onChange={(next) => setValues({ ...values, ...next })}
      />
      <PasswordPairFields
        form={form}
        label={t('auth.fields.password')}
        password={values.password}
        confirmation={values.password_confirmation}
        onChange={(next) => setValues({ ...values, ...next })}
      />
    </AuthFormFrame>
  );
}
