import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { OutlinedTextField } from '../../components/OutlinedTextField.tsx';
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
      <RadioGroup
        row
        aria-label={t('auth.fields.channel')}
        name="channel"
        value={channel}
        onChange={(e) => onChange({ channel: e.target.value as Channel, to: '' })}
      >
        <FormControlLabel value="email" control={<Radio />} label={t('auth.channels.email')} />
        <FormControlLabel value="sms" control={<Radio />} label={t('auth.channels.sms')} />
      </RadioGroup>
      <OutlinedTextField
        {...form.fieldProps(field, 'to')}
        type={channel === 'email' ? 'email' : 'tel'}
        label={t(`auth.fields.${field}`)}
        autoComplete={channel === 'email' ? 'email' : 'tel'}
        inputMode={channel === 'email' ? 'email' : 'tel'}
        value={to}
        onChange={(e) => onChange({ to: e.target.value })}
        required
        fullWidth
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <OutlinedTextField
          {...form.fieldProps('captcha')}
          label={t('auth.fields.captcha')}
          autoComplete="one-time-code"
          inputMode="numeric"
          value={captcha}
          onChange={(e) => onChange({ captcha: e.target.value })}
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: 6 } }}
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
      </Stack>
      <div aria-live="polite">{notice ? <Alert severity="success">{notice}</Alert> : null}</div>
    </>
  );
}
