import * as z from 'zod';
import { isIdString } from './ids.ts';
import { PHONE_PATTERN } from './common.ts';
import { wireTime } from './wire.ts';
import { LOGIN_PASSWORD_MAX, LOGIN_USERNAME_MAX } from './loginBounds.ts';

/** Password bounds of the product: long passphrases are welcome, nothing is ever truncated. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** A verification code: six digits. */
export const CODE_PATTERN = /^\d{6}$/;
/** Usernames start with a letter so they never look like a phone number, and never hold `@` (emails). */
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{2,31}$/;

export const CHANNELS = ['email', 'sms'] as const;
export const SCENES = ['register', 'reset', 'login', 'bind'] as const;
export type Channel = (typeof CHANNELS)[number];
export type Scene = (typeof SCENES)[number];

/** Counts code points, not UTF-16 units, so an emoji passphrase is measured as the user sees it. */
export function passwordLength(value: string): number {
  return [...value].length;
}

/**
 * A string that must be present; `key` is the message for both "missing" and "empty". An optional format check
 * runs only on a non-empty value, so an empty field gets "please enter ..." alone, and the other fields and the
 * confirmation check still report (zod's `abort` would hide those).
 */
function required(key: string, format?: { test: (value: string) => boolean; message: string }) {
  return z
    .string({ error: key })
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') ctx.addIssue({ code: 'custom', message: key });
      else if (format && !format.test(value)) ctx.addIssue({ code: 'custom', message: format.message });
    });
}

/** Passwords are never trimmed: every character counts. */
function requiredPassword(format?: { test: (value: string) => boolean; message: string }) {
  const key = 'validation.password_required';
  return z.string({ error: key }).superRefine((value, ctx) => {
    if (value === '') ctx.addIssue({ code: 'custom', message: key });
    else if (format && !format.test(value)) ctx.addIssue({ code: 'custom', message: format.message });
  });
}

/** A new password: present, 8..128 code points. The common-password check is the server's (it owns the list). */
export const newPassword = requiredPassword({
  test: (v) => passwordLength(v) >= PASSWORD_MIN && passwordLength(v) <= PASSWORD_MAX,
  message: 'validation.password_format',
}).meta({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }); // documents the bounds (the API reference)

const code = required('validation.captcha_required', {
  test: (v) => CODE_PATTERN.test(v),
  message: 'auth.captcha_format',
}).meta({ pattern: CODE_PATTERN.source });

function withConfirmation<T extends { password: string; password_confirmation: string }>(
  value: T,
  ctx: z.RefinementCtx,
) {
  if (value.password !== value.password_confirmation) {
    ctx.addIssue({
      code: 'custom',
      path: ['password_confirmation'],
      message: 'validation.password_mismatch',
    });
  }
}

/** `POST v1/user/login`: `username` may be a username, an email or a phone number. */
export const loginSchema = z.object({
  username: required('validation.username_required', {
    test: (v) => v.length <= LOGIN_USERNAME_MAX,
    message: 'auth.failed',
  }),
  // Bounded (./loginBounds.ts): the sign-in page checks the same bounds before it has loaded zod.
  password: requiredPassword({
    test: (v) => v.length <= LOGIN_PASSWORD_MAX,
    message: 'validation.password_format',
  }),
  remember: z.boolean().optional().default(false),
});

/**
 * What every sign-in answers (password, registration, WeChat): the bearer token and when it ends; null for a
 * session token, whose end moves with use (12 idle hours).
 */
export const tokenSchema = z.object({ access_token: z.string(), expires_at: wireTime.nullable() });
export type TokenAnswer = z.infer<typeof tokenSchema>;

/** `POST v1/user/captcha`: where to send a code and for what. `to` is checked against the channel. */
export const captchaSchema = z
  .object({
    channel: z.enum(CHANNELS, { message: 'validation.one_of' }),
    to: required('validation.required', { test: (v) => v.length <= 254, message: 'validation.invalid' }),
    scene: z.enum(SCENES, { message: 'validation.one_of' }),
  })
  .transform((value, ctx) => {
    const to = normalizeAddress(value.channel, value.to);
    if (to === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: value.channel === 'email' ? 'validation.email' : 'validation.phone',
      });
      return z.NEVER;
    }
    return { ...value, to };
  });

/** `POST v1/user/register`: an email or a phone, proven by a code of the `register` scene. */
export const registerSchema = z
  .object({
    username: required('validation.username_required', {
      test: (v) => USERNAME_PATTERN.test(v),
      message: 'auth.username_format',
    }),
    password: newPassword,
    password_confirmation: requiredPassword(),
    email: z.string().trim().toLowerCase().email({ message: 'validation.email' }).max(254).optional(),
    phone: z.string().trim().regex(PHONE_PATTERN, { message: 'validation.phone' }).optional(),
    captcha: code,
  })
  .superRefine((value, ctx) => {
    withConfirmation(value, ctx);
    if (!value.email && !value.phone) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.email_required' });
    }
  });

/** `POST v1/user/reset`: a code of the `reset` scene sent to `to` over `channel`, and the new password. */
export const resetSchema = z
  .object({
    channel: z.enum(CHANNELS, { message: 'validation.one_of' }),
    to: required('validation.required', { test: (v) => v.length <= 254, message: 'validation.invalid' }),
    captcha: code,
    password: newPassword,
    password_confirmation: requiredPassword(),
  })
  .superRefine(withConfirmation)
  .transform((value, ctx) => {
    const to = normalizeAddress(value.channel, value.to);
    if (to === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: value.channel === 'email' ? 'validation.email' : 'validation.phone',
      });
      return z.NEVER;
    }
    return { ...value, to };
  });

/** `POST v1/user/password`: the current password and the new one twice. */
export const passwordChangeSchema = z
  .object({
    old_password: requiredPassword({ test: (v) => v.length <= 1024, message: 'validation.password_format' }),
    password: newPassword,
    password_confirmation: requiredPassword(),
  })
  .superRefine(withConfirmation);

/** `POST v1/user/profile`: what a user may change about themselves. A new email or phone needs a `bind` code. */
export const profileUpdateSchema = z.object({
  name: z.string().trim().max(60, { message: 'validation.too_long|{"max":60}' }).optional(),
  avatar: z
    .union([z.string().regex(/^\d{1,19}$/), z.number().int().positive()])
    .transform(String)
    .refine(isIdString, { message: 'validation.invalid' })
    .nullable()
    .optional(),
  email: z.string().trim().toLowerCase().email({ message: 'validation.email' }).max(254).optional(),
  phone: z.string().trim().regex(PHONE_PATTERN, { message: 'validation.phone' }).optional(),
  captcha: z.string().regex(CODE_PATTERN, { message: 'auth.captcha_format' }).optional(),
});

/** Canonical form of an address for a channel (emails lower-cased), or null when it is not one. */
export function normalizeAddress(channel: Channel, value: string): string | null {
  const trimmed = value.trim();
  if (channel === 'sms') return PHONE_PATTERN.test(trimmed) ? trimmed : null;
  const parsed = z.string().email().max(254).safeParse(trimmed.toLowerCase());
  return parsed.success ? parsed.data : null;
}
