import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel } from '../../../schemas/auth.ts';
import { Alert } from '../../public-ui/controls.tsx';
import { httpClient } from '../../providers/httpClient.ts';
import { ChannelFields } from './ChannelFields.tsx';
import { loadAuthSchemas } from './loadAuthSchemas.ts';
import { AuthFormFrame, PasswordPairFields } from './AuthFormParts.tsx';
import { useAuthForm } from './useAuthForm.ts';
import { withHref } from './withHref.ts';
import { AppLink, useSearchParams } from '../../navigation/navigation.tsx';

/** Forgotten password: a code to the account's email or phone, then the new password twice. */
export function ResetPage() {
  const { t } = useTranslation();
  const form = useAuthForm();
  const params = useSearchParams();
  const toLogin = withHref('/login', params.get('href'));
  const [notice, setNotice] = useState<string | null>(null);
  const [isDone, setDone] = useState(false);
  const [values, setValues] = useState({
    channel: 'email' as Channel,
    to: '',
    captcha: '',
    password: '',
    password_confirmation: '',
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const ok = await form.submit(
      () => loadAuthSchemas().then((m) => m.resetSchema),
      values,
      async () => {
        await httpClient('v1/user/reset', { method: 'POST', body: values });
      },
    );
    setDone(ok);
  };

  if (isDone) {
    return (
      <div className="pu-stack-2">
        <h1 className="pu-title">{t('auth.reset.title')}</h1>
        <Alert severity="success" role="status">
          {t('auth.reset.done')}
        </Alert>
        <AppLink className="pu-link" to={toLogin}>
          {t('auth.reset.to_login')}
        </AppLink>
      </div>
    );
  }

  return (
    <AuthFormFrame
      id="reset"
      title={t('auth.reset.title')}
      submitLabel={t('auth.reset.submit')}
      form={form}
      onSubmit={onSubmit}
      footer={
        <>
          <div className="pu-pt">
            <AppLink className="pu-link" to={toLogin}>
              {t('auth.reset.to_login')}
            </AppLink>
          </div>
        </>
      }
    >
      <ChannelFields
        form={form}
        scene="reset"
        channel={values.channel}
        to={values.to}
        captcha={values.captcha}
        notice={notice}
        onNotice={setNotice}
        onChange={(next) => setValues({ ...values, ...next })}
      />
      <PasswordPairFields
        form={form}
        label={t('auth.fields.new_password')}
        password={values.password}
        confirmation={values.password_confirmation}
        onChange={(next) => setValues({ ...values, ...next })}
      />
    </AuthFormFrame>
  );
}
