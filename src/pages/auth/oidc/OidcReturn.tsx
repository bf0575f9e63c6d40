import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignInReturnStatus } from '../AuthFormParts.tsx';
import { isHttpError } from '../../../providers/httpError.ts';
import { signInWithOidcTicket, type MfaChallenge } from '../../../providers/session.ts';
import { REMEMBER_KEY } from './oidcReturn.ts';

/**
 * The /login page when an OpenID provider's callback sent the user back with a one-time ticket: signs in
 * with it, then `onDone` (signed in) or `onChallenge` (the second step or the enrolment comes next).
 *
 * @example
 * if (ticket) return <OidcReturn ticket={ticket} onDone={enter} onChallenge={setChallenge} backTo="/login" />;
 */
export function OidcReturn({
  ticket,
  onDone,
  onChallenge,
  backTo,
}: {
  ticket: string;
  onDone: () => void;
  onChallenge: (challenge: MfaChallenge) => void;
  backTo: string;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    spendOnce(ticket).then(
      (challenge) => {
        if (!isCurrent) return;
        if (challenge) onChallenge(challenge);
        else onDone();
      },
      (err: unknown) => {
        if (isCurrent) setError(isHttpError(err) ? err.message : t('auth.errors.network'));
      },
    );
    return () => {
      isCurrent = false;
    };
    // One ticket, one attempt: it is spent by the first call.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ticket]);

  return <SignInReturnStatus error={error} label={t('auth.oidc.signing_in')} backTo={backTo} />;
}

/** One sign-in per ticket and page load: StrictMode's second effect (development) gets the same answer. */
const spent = new Map<string, Promise<MfaChallenge | null>>();
function spendOnce(ticket: string): Promise<MfaChallenge | null> {
  let pending = spent.get(ticket);
  if (!pending) {
    const remember = sessionStorage.getItem(REMEMBER_KEY) === '1';
    sessionStorage.removeItem(REMEMBER_KEY);
    pending = signInWithOidcTicket({ ticket, remember });
    spent.set(ticket, pending);
  }
  return pending;
}
