import { httpClient } from './httpClient.ts';
import { setToken } from './token.ts';

export interface LoginParams {
  username: string;
  password: string;
  remember?: boolean;
}

/** `POST v1/user/register`'s payload: one address (email or phone) proven by a code. */
export interface RegisterParams {
  username: string;
  password: string;
  password_confirmation: string;
  captcha: string;
  email?: string;
  phone?: string;
}

const listeners = new Set<() => void>();

/**
 * Runs `listener` whenever who is signed in changes; the react-query cache (providers/queryClient.ts) drops
 * its profiles this way. The signed-out pages sign in through this module, without react-query.
 */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners that the signed-in user (or their staff record) changed. */
export function sessionChanged(): void {
  listeners.forEach((listener) => listener());
}

/**
 * The second step a sign-in asks for when the account has a second factor (issue 31), or, with
 * `enrolment_token`, the enrolment a `login.require_2fa` policy demands before any session.
 */
export interface MfaChallenge {
  mfa_token: string;
  methods: string[];
  remember: boolean;
  enrolment_token?: string;
}

/**
 * Signs in with a password and keeps the token (a remember-me one for 30 days). For an account with a second
 * factor nothing is kept yet: the challenge is returned, to finish with `finishSecondStep`.
 */
export async function signIn({
  username,
  password,
  remember = false,
}: LoginParams): Promise<MfaChallenge | null> {
  const data = await httpClient<SignInAnswer>('v1/user/login', {
    method: 'POST',
    body: { username, password, remember },
  });
  return keepOrChallenge(data, remember);
}

/**
 * Signs in with the one-time ticket an OpenID provider's callback put on `/login?oidc_ticket=` (issue 31):
 * keeps the token, or returns the second step or the enrolment the account needs, as `signIn` does.
 */
export async function signInWithOidcTicket({
  ticket,
  remember = false,
}: {
  ticket: string;
  /** The choice made on the sign-in page before leaving for the provider (the server keeps its own copy). */
  remember?: boolean;
}): Promise<MfaChallenge | null> {
  const data = await httpClient<SignInAnswer>('v1/oidc/login', { method: 'POST', body: { ticket } });
  return keepOrChallenge(data, remember);
}

/** What every first factor answers: a token, the second step, or the enrolment a policy demands. */
type SignInAnswer =
  | { access_token: string }
  | { mfa_required: true; mfa_token: string; methods: string[] }
  | { mfa_enrolment_required: true; enrolment_token: string; methods: string[] };

function keepOrChallenge(data: SignInAnswer, remember: boolean): MfaChallenge | null {
  if ('mfa_required' in data) return { mfa_token: data.mfa_token, methods: data.methods, remember };
  // A covered user without a factor: the enrolment token is good for enrolling alone (EnrolStep).
  if ('mfa_enrolment_required' in data)
    return { mfa_token: '', methods: data.methods, remember, enrolment_token: data.enrolment_token };
  sessionChanged();
  setToken(data.access_token, remember);
  return null;
}

/** `POST v1/user/login/2fa`: finishes a two-step sign-in with an authenticator or a recovery code. */
export async function finishSecondStep(
  challenge: MfaChallenge,
  code: { code: string } | { recovery_code: string },
): Promise<void> {
  const data = await httpClient<{ access_token: string }>('v1/user/login/2fa', {
    method: 'POST',
    body: { mfa_token: challenge.mfa_token, ...code },
  });
  sessionChanged();
  setToken(data.access_token, challenge.remember);
}

/** Registers and signs in (spec 7: "Login or register stores the token"), with a session cookie. */
export async function registerAccount(params: RegisterParams): Promise<void> {
  const data = await httpClient<{ access_token: string }>('v1/user/register', {
    method: 'POST',
    body: params,
  });
  sessionChanged();
  setToken(data.access_token, false);
}

/**
 * Signs in with a passkey (`navigator.credentials.get` through @simplewebauthn/browser, loaded on use): alone,
 * or as the second step of `challenge`. Keeps the token like `signIn`.
 */
export async function signInWithPasskey({
  challenge = null,
  remember = false,
}: {
  challenge?: MfaChallenge | null;
  remember?: boolean;
}): Promise<void> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const mfa = challenge ? { mfa_token: challenge.mfa_token } : {};
  const optionsJSON = await httpClient<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    'v1/user/login/passkey/options',
    { method: 'POST', body: mfa },
  );
  const response = await startAuthentication({ optionsJSON });
  const keep = challenge ? challenge.remember : remember;
  const data = await httpClient<{ access_token: string }>('v1/user/login/passkey', {
    method: 'POST',
    body: { ...mfa, response, remember: keep },
  });
  sessionChanged();
  setToken(data.access_token, keep);
}

/** Keeps the session a policy enrolment answered (`POST v1/user/2fa/totp/confirm` with the enrolment token). */
export function keepEnrolledSession(accessToken: string, remember: boolean): void {
  sessionChanged();
  setToken(accessToken, remember);
}
