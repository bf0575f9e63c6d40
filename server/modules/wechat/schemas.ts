import { z } from 'zod';
import { PHONE_PATTERN } from '../../../schemas/common.ts';
import { CODE_PATTERN, USERNAME_PATTERN, newPassword } from '../../../schemas/auth.ts';

/** `POST .../login`: what WeChat put on the return URL. */
export const wechatLoginSchema = z.object({
  code: z.string({ error: 'validation.required' }).trim().min(1).max(256),
  state: z.string({ error: 'validation.required' }).trim().min(1).max(128),
});

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * `POST .../register`: either `link` (an existing account's username, email or phone and its password) or a new
 * account: username, an optional password (twice) and an optional email or phone proven by a `register` code.
 */
export const wechatRegisterSchema = z
  .object({
    ticket: z.string({ error: 'validation.required' }).min(1).max(128),
    link: z
      .object({
        username: z
          .string({ error: 'validation.username_required' })
          .trim()
          .min(1, 'validation.username_required')
          .max(254),
        password: z
          .string({ error: 'validation.password_required' })
          .min(1, 'validation.password_required')
          .max(1024),
      })
      .optional(),
    username: optionalText,
    password: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined)),
    password_confirmation: z.string().optional(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .optional()
      .transform((v) => (v ? v : undefined)),
    phone: optionalText,
    captcha: optionalText,
  })
  .superRefine((value, ctx) => {
    if (value.link) return;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!value.username) issue('username', 'validation.username_required');
    else if (!USERNAME_PATTERN.test(value.username)) issue('username', 'auth.username_format');
    if (value.password !== undefined) {
      if (!newPassword.safeParse(value.password).success) issue('password', 'validation.password_format');
      if (value.password !== value.password_confirmation) {
        issue('password_confirmation', 'validation.password_mismatch');
      }
    }
    if (value.email && value.phone) issue('phone', 'auth.one_contact');
    if (value.email && !z.string().email().safeParse(value.email).success) issue('email', 'validation.email');
    if (value.phone && !PHONE_PATTERN.test(value.phone)) issue('phone', 'validation.phone');
    if (value.email || value.phone) {
      if (!value.captcha) issue('captcha', 'validation.captcha_required');
      else if (!CODE_PATTERN.test(value.captcha)) issue('captcha', 'auth.captcha_format');
    }
  });

export type WechatRegisterInput = z.output<typeof wechatRegisterSchema>;
