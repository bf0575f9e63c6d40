import { useTranslation } from 'react-i18next';
import { Checkbox, TextField } from '../../../public-ui/controls.tsx';
import { AppLink } from '../../../navigation/navigation.tsx';
import { AuthFormFrame } from '../AuthFormParts.tsx';
import { ChannelFields } from '../ChannelFields.tsx';
import { useWechatRegister } from './useWechatRegister.ts';
import { WechatRegisterIntro } from './WechatRegisterIntro.tsx';
import type { WechatTicket, WechatToken } from './wechatApi.ts';

/**
 * After WeChat sign-in of a user who is not linked yet: create a new account (username, optional password,
 * optional email or phone with a code) or link an existing one with its password. The view of
 * useWechatRegister.
 */
export function WechatRegisterForm({
  ticket,
  onDone,
  backTo,
}: {
  ticket: WechatTicket;
  onDone: (token: WechatToken) => void;
  backTo: string;
}) {
  const { t } = useTranslation();
  const register = useWechatRegister({ ticket, onDone });
  const { form, values, link } = register;

  return (
    <AuthFormFrame
      id="wechat-register"
      title={t('auth.wechat.register.title')}
      submitLabel={t(
        register.mode === 'link' ? 'auth.wechat.register.submit_link' : 'auth.wechat.register.submit_new',
      )}
      form={form}
      onSubmit={register.onSubmit}
      intro={<WechatRegisterIntro ticket={ticket} mode={register.mode} onMode={register.setMode} />}
      footer={
        <div className="pu-pt">
          <AppLink className="pu-link" to={backTo} replace>
            {t('auth.wechat.back_to_login')}
          </AppLink>
        </div>
      }
    >
      {register.mode === 'link' ? (
        <>
          <TextField
            {...form.fieldProps('username')}
            label={t('auth.fields.account')}
            autoComplete="username"
            value={link.username}
            onChange={(e) => register.changeLink({ username: e.target.value })}
            required
          />
          <TextField
            {...form.fieldProps('password')}
            type="password"
            label={t('auth.fields.password')}
            autoComplete="current-password"
            value={link.password}
            onChange={(e) => register.changeLink({ password: e.target.value })}
            required
          />
        </>
      ) : (
        <>
          <TextField
            {...form.fieldProps('username')}
            label={t('auth.fields.username')}
            autoComplete="username"
            value={values.username}
            onChange={(e) => register.changeValues({ username: e.target.value })}
            required
          />
          <TextField
            {...form.fieldProps('password')}
            type="password"
            label={t('auth.wechat.register.password_optional')}
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => register.changeValues({ password: e.target.value })}
          />
          {values.password ? (
            <TextField
              {...form.fieldProps('password_confirmation')}
              type="password"
              label={t('auth.fields.password_confirmation')}
              autoComplete="new-password"
              value={values.password_confirmation}
              onChange={(e) => register.changeValues({ password_confirmation: e.target.value })}
            />
          ) : null}
          <Checkbox
            checked={register.hasContact}
            onChange={(e) => register.setHasContact(e.target.checked)}
            label={t('auth.wechat.register.contact_hint')}
          />
          {register.hasContact ? (
            <ChannelFields
              form={form}
              scene="register"
              channel={values.channel}
              to={values.to}
              captcha={values.captcha}
              notice={register.notice}
              onNotice={register.setNotice}
              onChange={register.changeValues}
            />
          ) : null}
        </>
      )}
    </AuthFormFrame>
  );
}
