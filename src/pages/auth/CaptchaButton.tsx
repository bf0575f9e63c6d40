import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel, Scene } from '../../../schemas/auth.ts';
import { Button } from '../../public-ui/controls.tsx';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';

const COUNTDOWN_SECONDS = 60;

/**
 * "Send code" for the account forms: calls `POST v1/user/captcha`, then counts down 60 s before it can resend
 * (the server allows one send per address per minute). Errors go to `onError` so the page shows them in place.
 */
export function CaptchaButton({
  channel,
  to,
  scene,
  onSent,
  onError,
  disabled = false,
}: {
  channel: Channel;
  to: string;
  scene: Scene;
  onSent: (message: string) => void;
  onError: (error: { field?: string; message: string }) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(0);
  const [isSending, setSending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = async () => {
    setSending(true);
    try {
      await httpClient('v1/user/captcha', { method: 'POST', body: { channel, to: to.trim(), scene } });
      setSeconds(COUNTDOWN_SECONDS);
      onSent(t('auth.captcha.sent'));
    } catch (error) {
      if (isHttpError(error)) {
        const [field, messages] = Object.entries(error.errors)[0] ?? [];
        if (error.status === 429) setSeconds(COUNTDOWN_SECONDS);
        onError({
          field: field === 'to' ? channelField(channel) : field,
          message: messages?.[0] ?? error.message,
        });
      } else {
        onError({ message: t('auth.errors.network') });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      variant="outlined"
      onClick={() => void send()}
      disabled={disabled || isSending || seconds > 0 || !to.trim()}
      className="pu-captcha-btn"
    >
      {seconds > 0 ? t('auth.captcha.resend_in', { seconds }) : t('auth.captcha.send')}
    </Button>
  );
}

/** The form field that holds the address of a channel. */
export function channelField(channel: Channel): 'email' | 'phone' {
  return channel === 'email' ? 'email' : 'phone';
}
