import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Argon2 from '@node-rs/argon2';

/** The native argon2 binding, loaded on the first hash or check rather than at every start (issue 37 item 3). */
let argon2: Promise<typeof Argon2> | null = null;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** OWASP's argon2id recommendation: 19 MiB, 2 iterations, 1 lane. Hashing runs on libuv's thread pool. */
export const ARGON2_OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, ARGON2_OPTIONS);
}

/** Verifies a password; with no stored hash it hashes a dummy anyway so unknown users cost the same time. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  const { hash, verify } = await loadArgon2();
  if (!stored) {
    await hash(password, ARGON2_OPTIONS);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A strong random password for the first administrator when none is configured. */
export function generatePassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}

const COMMON_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');
let commonPasswords: ReadonlySet<string> | null = null;

/** True for a password from the shipped list of common ones (compared case-insensitively). */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(
    fs
      .readFileSync(COMMON_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
  );
  return commonPasswords.has(password.toLowerCase());
}

/**
 * The policy beyond length (which the shared zod schema checks): not a common password, not one character
 * repeated, not the account's own username or email. Returns true when the password may be used.
 */
export function isAcceptablePassword(
  password: string,
  { identities = [] }: { identities?: Array<string | null | undefined> } = {},
): boolean {
  const lower = password.toLowerCase();
  if (isCommonPassword(password)) return false;
  if (new Set(lower).size <= 1) return false;
  return !identities.some((value) => value && value.toLowerCase() === lower);
}
