import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, PublicLoading, TextField } from '../../public-ui/controls.tsx';
import { httpClient } from '../../providers/httpClient.ts';
import { isHttpError } from '../../providers/httpError.ts';
import { keepEnrolledSession, type MfaChallenge } from '../../providers/session.ts';
import { AuthFormFrame } from './AuthFormParts.tsx';
import { useAuthForm } from './useAuthForm.ts';

/**
 * The enrolment a `login.require_2fa` policy demands before a session (issue 31): the authenticator's QR code
 * and a first code, with the enrolment token as the Bearer; then the recovery codes once, then `onDone`. Or,
 * beside it, a passkey registered with the same Bearer: its answer holds the session, then `onDone`.
 *
 * @example {challenge.enrolment_token ? <EnrolStep challenge={challenge} onDone={enter} onRestart={back} /> : null}
 */
export function EnrolStep({
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
  const bearer = challenge.enrolment_token ?? '';
  const [enrolment, setEnrolment] = useState<{ secret: string; qr_svg: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [value, setValue] = useState('');
  const [isRegistering, setRegistering] = useState(false);
  const { setFormError } = form;
  const canUsePasskey =
    challenge.methods.includes('passkey') && typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  const registerPasskey = async () => {
    setRegistering(true);
    setFormError(null);
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const optionsJSON = await httpClient<Parameters<typeof startRegistration>[0]['optionsJSON']>(
        'v1/user/passkeys/options',
        { method: 'POST', body: {}, bearer },
      );
      const response = await startRegistration({ optionsJSON });
      const data = await httpClient<{ access_token?: string }>('v1/user/passkeys', {
        method: 'POST',
        body: { name: t('auth.passkey.default_name'), response },
        bearer,
      });
      if (!data.access_token) throw new Error('no session');
      keepEnrolledSession(data.access_token, challenge.remember);
      await onDone();
    } catch (error) {
      if (isHttpError(error)) {
        const first = Object.values(error.errors)[0]?.[0];
        setFormError(first ?? (error.message || t('auth.errors.generic')));
      } else setFormError(t('auth.passkey.cancelled'));
    } finally {
      setRegistering(false);
    }
  };

  useEffect(() => {
    httpClient<{ secret: string; qr_svg: string }>('v1/user/2fa/totp', { method: 'POST', body: {}, bearer })
      .then(setEnrolment)
      .catch(() => setFormError(t('auth.mfa.expired')));
  }, [bearer, setFormError, t]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (codes) {
      await onDone();
      return;
    }
    await form.submit(
      () => import('../../../schemas/mfa.ts').then((m) => m.totpConfirmSchema),
      { code: value },
      async (body) => {
        const data = await httpClient<{ recovery_codes: string[]; access_token?: string }>(
          'v1/user/2fa/totp/confirm',
          { method: 'POST', body, bearer },
        );
        if (data.access_token) keepEnrolledSession(data.access_token, challenge.remember);
        setCodes(data.recovery_codes);
      },
    );
  };

  return (
    <AuthFormFrame
      id="enrol"
      title={codes ? t('auth.mfa.codes_title') : t('auth.mfa.enrol_title')}
      submitLabel={codes ? t('auth.mfa.codes_done') : t('auth.mfa.confirm')}
      form={form}
      onSubmit={onSubmit}
      intro={<p className="pu-text-2">{codes ? t('auth.mfa.codes_hint') : t('auth.mfa.enrol_required')}</p>}
      footer={
        codes ? null : (
          <Button type="button" variant="text" onClick={onRestart}>
            {t('auth.mfa.back_to_login')}
          </Button>
        )
      }
    >
      {codes ? (
        <ul aria-label={t('auth.mfa.codes_title')} className="pu-stack-2" style={{ fontFamily: 'monospace' }}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      ) : enrolment ? (
        <>
          <p className="pu-text-2">{t('auth.mfa.scan')}</p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qr_svg)}`}
            alt={t('auth.mfa.qr_alt')}
            width={200}
            height={200}
            style={{ background: '#fff', alignSelf: 'center' }}
          />
          <p className="pu-text-2" style={{ wordBreak: 'break-all' }}>
            {t('auth.mfa.secret')}: <code>{enrolment.secret}</code>
          </p>
          <TextField
            {...form.fieldProps('code')}
            label={t('auth.mfa.code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            required
          />
          {canUsePasskey ? (
            <>
              <p className="pu-text-2">{t('auth.passkey.enrol_hint')}</p>
              <Button
                type="button"
                variant="outlined"
                busy={isRegistering}
                onClick={() => void registerPasskey()}
              >
                {t('auth.passkey.enrol')}
              </Button>
            </>
          ) : null}
        </>
      ) : form.formError ? null : (
        <PublicLoading />
      )}
    </AuthFormFrame>
  );
}
