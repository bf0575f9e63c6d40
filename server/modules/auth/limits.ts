import { AppError } from '../../core/errors.ts';

/**
 * Rate limits of the account calls (fixed windows, shared by every server through the database).
 * "Address" here is the client's network address; codes are also limited per destination (email/phone).
 */
export const LIMITS = {
  /**
   * Password checks per account and client address (the account resolved from a username, email or phone;
   * the normalised identifier when no account matches); counted before the check, a success gives its
   * attempt back. The next attempt waits for the window, right password or not.
   */
  loginFailures: { max: 5, timeWindow: 60_000 },
  /**
   * Password checks per account from all addresses together (no permanent lockout: the window ends), for
   * devices without the account's device cookie (device.ts); sign-in, WeChat linking and password change.
   */
  loginPerAccount: { max: 10, timeWindow: 15 * 60_000 },
  /** The same, per account and known device (one holding the account's device cookie) instead of the ceiling. */
  loginPerDevice: { max: 10, timeWindow: 15 * 60_000 },
  /** Ceilings per client address, whatever the outcome. */
  loginPerAddress: { max: 30, timeWindow: 60_000 },
  captchaPerAddress: { max: 10, timeWindow: 60_000 },
  registerPerAddress: { max: 10, timeWindow: 60_000 },
  resetPerAddress: { max: 10, timeWindow: 60_000 },
  passwordPerAddress: { max: 10, timeWindow: 60_000 },
  /** One code per destination per minute. */
  captchaPerDestination: { max: 1, timeWindow: 60_000 },
} as const;

/** The 429 of the contract with its Retry-After (whole seconds, at least 1). */
export function rateLimited(ttlMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(429, 'errors.rate_limited', { headers: { 'retry-after': String(seconds) } });
}
