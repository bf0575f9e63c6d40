/** sessionStorage key: whether the sign-in that left for an OpenID provider asked to be remembered. */
export const REMEMBER_KEY = 'oidc_remember';

/** The reasons the callback puts on `/login?oidc_error=` (server/modules/oidc/sign-in.ts). */
const CALLBACK_ERRORS = new Set([
  'state_invalid',
  'provider_rejected',
  'unavailable',
  'not_linked',
  'disabled',
  'already_linked',
]);

/** The message key of a callback error from the address bar; an unknown value reads as a failed sign-in. */
export function oidcErrorKey(value: string | null): string | null {
  if (!value) return null;
  return `auth.oidc.errors.${CALLBACK_ERRORS.has(value) ? value : 'provider_rejected'}`;
}
