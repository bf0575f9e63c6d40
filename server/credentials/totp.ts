import crypto from 'node:crypto';
import { generateSecret } from 'otplib';
import { sha256 } from './tokens.ts';

/**
 * TOTP and recovery-code primitives (RFC 6238 through otplib: SHA-1, 6 digits, 30 s, what every authenticator
 * app reads). Example: `const { timeStep } = await checkTotp({ secret, code, afterStep: row.last_step })`.
 */

/** One step either side of now is accepted (clocks drift; a code typed as it turns over). */
const TOLERANCE_SECONDS = 30;
/** A secret checked when there is none (an unknown mfa token), so every answer costs the same work. */
const DUMMY_SECRET = generateSecret();
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new base32 secret of 20 random bytes (160 bits, RFC 4226's recommendation). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The `otpauth://` address an authenticator app reads, and the same as an SVG QR code drawn here. */
export async function totpProvisioning({
  secret,
  issuer,
  label,
}: {
  secret: string;
  issuer: string;
  label: string;
}): Promise<{ otpauthUrl: string; qrSvg: string }> {
  // Imported on first use: drawing QR codes is rare and its modules are not needed to start (issue 37 item 3).
  const [{ generateURI }, { default: QRCode }] = await Promise.all([import('otplib'), import('qrcode')]);
  const otpauthUrl = generateURI({ issuer, label, secret });
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUrl, qrSvg };
}

/**
 * Checks a six-digit code against a secret (constant time, inside otplib). Returns the 30-second step it
 * belongs to, or null; a step not after `afterStep` (the last one accepted) is refused, so a code is never
 * accepted twice. `secret` null checks a dummy secret and always fails.
 */
export async function checkTotp({
  secret,
  code,
  afterStep,
}: {
  secret: string | null;
  code: string;
  afterStep: number | null;
}): Promise<number | null> {
  const { verify } = await import('otplib');
  const result = await verify({
    secret: secret ?? DUMMY_SECRET,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  if (secret === null || !result.valid) return null;
  // The TOTP strategy's result carries the step (otplib's functional type is the union of both strategies).
  return 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : null;
}

/** Ten recovery codes of 16 base32 characters (80 bits each), shown as `abcd-efgh-ijkl-mnop`. */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[crypto.randomInt(0, 32)]!).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** What is stored of a recovery code: the SHA-256 of its characters, lower-cased, dashes and spaces dropped. */
export function hashRecoveryCode(code: string): string {
  return sha256(`recovery|${code.replace(/[\s-]/g, '').toLowerCase()}`);
}
