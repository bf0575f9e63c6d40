import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../public-ui/controls.tsx';
import { isHttpError } from '../../providers/httpError.ts';
import { signInWithPasskey, type MfaChallenge } from '../../providers/session.ts';

/**
 * "Sign in with a passkey" (issue 31): the first factor alone, or the second step of `challenge`. Hidden in
 * browsers without WebAuthn. Errors go to `onError` (the form's message).
 *
 * @example <PasskeyButton remember={values.remember} onDone={enter} onError={form.setFormError} />
 */
export function PasskeyButton({
  challenge = null,
  remember = false,
  label,
  onDone,
  onError,
}: {
  challenge?: MfaChallenge | null;
  remember?: boolean;
  label: string;
  onDone: () => Promise<void>;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation();
  const [isBusy, setBusy] = useState(false);
  if (typeof window === 'undefined' || !('PublicKeyCredential' in window)) return null;
  const onClick = async () => {
    setBusy(true);
    onError(null);
    try {
      await signInWithPasskey({ challenge, remember });
      await onDone();
    } catch (error) {
      if (isHttpError(error)) {
        const first = Object.values(error.errors)[0]?.[0];
        onError(first ?? (error.message || t('auth.errors.generic')));
      } else onError(t('auth.passkey.cancelled'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="button" variant="outlined" busy={isBusy} onClick={() => void onClick()}>
      {label}
    </Button>
  );
}
