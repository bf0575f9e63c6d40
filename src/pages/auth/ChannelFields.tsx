import { useTranslation } from 'react-i18next';
import { Alert, RadioGroup, TextField } from '../../public-ui/controls.tsx';
import type { Channel, Scene } from '../../../schemas/auth.ts';
import { CaptchaButton, channelField } from './CaptchaButton.tsx';
import type { useAuthForm } from './useAuthForm.ts';

/**
 * Email-or-phone choice, the address, and the code with its send button: the part the register and reset forms
 * share. `notice` shows "Captcha sent" politely to screen readers.
 */
export function ChannelFields({
  form,
  scene,
  channel,
  to,
  captcha,
  notice,
  onChange,
  onNotice,
}: {
  form: ReturnType<typeof useAuthForm>;
  scene: Scene;
  channel: Channel;
  to: string;
  captcha: string;
  notice: string | null;
  onChange: (next: { channel?: Channel; to?: string; captcha?: string }) => void;
  onNotice: (message: string | null) => void;
}) {
  const { t } = useTranslation();
  const field = channelField(channel);
  return (
    <>
      <RadioGroup<Channel>
        label={t('auth.fields.channel')}
        name="channel"
        value={channel}
        onChange={(next) => onChange({ channel: next, to: '' })}
        options={[
          { value: 'email', label: t('auth.channels.email') },
          { value: 'sms', label: t('auth.channels.sms') },
        ]}
      />
      <TextField
        {...form.fieldProps(field, 'to')}
        type={channel === 'email' ? 'email' : 'tel'}
        label={t(`auth.fields.${field}`)}
        autoComplete={channel === 'email' ? 'email' : 'tel'}
        inputMode={channel === 'email' ? 'email' : 'tel'}
        value={to}
        onChange={(e) => onChange({ to: e.target.value })}
        required
      />
      <div className="pu-row">
        <TextField
          {...form.fieldProps('captcha')}
          label={t('auth.fields.captcha')}
          autoComplete="one-time-code"
          inputMode="numeric"
          value={captcha}
          onChange={(e) => onChange({ captcha: e.target.value })}
          required
          maxLength={6}
        />
        <CaptchaButton
          channel={channel}
          to={to}
          scene={scene}
          onSent={(message) => {
            onNotice(message);
            form.setErrors({});
          }}
          onError={({ field: name, message }) => {
            onNotice(null);
            if (name) form.setErrors({ [name]: [message] });
            else form.setFormError(message);
          }}
        />
      </div>
      <div aria-live="polite">{notice ? <Alert severity="success">{notice}</Alert> : null}</div>
    </>
  );
}
