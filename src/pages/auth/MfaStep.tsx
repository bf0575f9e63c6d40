import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '../../public-ui/controls.tsx';
import { finishSecondStep, type MfaChallenge } from '../../providers/session.ts';
import { AuthFormFrame } from './AuthFormParts.tsx';
import { PasskeyButton } from './PasskeyButton.tsx';
import { useAuthForm } from './useAuthForm.ts';

/**
 * The second step of a sign-in (issue 31): a code from the authenticator app, or one of the recovery codes.
 * `onDone` runs once the session is kept; `onRestart` goes back to the password (an expired step).
 *
 * @example
 * {challenge ? <MfaStep challenge={challenge} onDone={enter} onRestart={() => setChallenge(null)} /> : form}
 */
export function MfaStep({
  challenge,
  onDone,
  onRestart,
}: {
  challenge: MfaChallenge;
  onDone: () => Promise<void>;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const form = useAuthForm();
  const [isRecovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const canUseRecovery = challenge.methods.includes('recovery');

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = isRecovery ? { recovery_code: value } : { code: value };
    const isDone = await form.submit(
      () => import('../../../schemas/mfa.ts').then((m) => m.mfaLoginSchema),
      { mfa_token: challenge.mfa_token, ...typed },
      (data) =>
        finishSecondStep(
          challenge,
          data.code ? { code: data.code } : { recovery_code: data.recovery_code ?? '' },
        ),
    );
    if (isDone) await onDone();
  };
  const field = isRecovery ? 'recovery_code' : 'code';

  return (
    <AuthFormFrame
      id="mfa"
      title={t('auth.mfa.step_title')}
      submitLabel={t('auth.mfa.verify')}
      form={form}
      onSubmit={onSubmit}
      intro={<p className="pu-text-2">{t(isRecovery ? 'auth.mfa.recovery_hint' : 'auth.mfa.step_hint')}</p>}
      footer={
        <>
          {challenge.methods.includes('passkey') ? (
            <PasskeyButton
              challenge={challenge}
              label={t('auth.passkey.use_passkey')}
              onDone={onDone}
              onError={form.setFormError}
            />
          ) : null}
          <div className="pu-row-between">
            {canUseRecovery ? (
              <Button
                type="button"
                variant="text"
                onClick={() => {
                  setRecovery(!isRecovery);
                  setValue('');
                  form.setErrors({});
                }}
              >
                {t(isRecovery ? 'auth.mfa.use_totp' : 'auth.mfa.use_recovery')}
              </Button>
            ) : null}
            <Button type="button" variant="text" onClick={onRestart}>
              {t('auth.mfa.back_to_login')}
            </Button>
          </div>
        </>
      }
    >
      <TextField
        {...form.fieldProps(field, 'mfa_token')}
        key={field}
        label={t(isRecovery ? 'auth.mfa.recovery_code' : 'auth.mfa.code')}
        autoComplete="one-time-code"
        inputMode={isRecovery ? 'text' : 'numeric'}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        required
      />
    </AuthFormFrame>
  );
}
