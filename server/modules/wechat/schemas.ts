import * as z from 'zod';
import { PHONE_PATTERN } from '../../../schemas/common.ts';
import {
  CODE_PATTERN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_PATTERN,
  newPassword,
  tokenSchema,
} from '../../../schemas/auth.ts';
import { wireTime } from '../../../schemas/wire.ts';

/**
 * The WeChat calls' bodies and answers: each route declares them once with `route()` (server/core/route.ts),
 * which validates the bodies and documents both in the OpenAPI document.
 */

/**
 * `GET .../auth`: where to come back to and whether to remember the session. Documents the query; the route
 * reads it leniently (an unsafe `href` is dropped, anything but 1/true is "do not remember").
 */
export const wechatAuthQuerySchema = z.object({
  href: z.string().optional().describe('Same-origin page to return to after sign-in, e.g. /dashboard'),
  remember: z.enum(['0', '1', 'true', 'false']).optional().describe('Keep the session 30 days'),
});

/** `GET .../auth` answer. */
export const wechatAuthAnswerSchema = z.object({
  url: z
    .string()
    .describe(
      'WeChat authorisation URL (connect/oauth2/authorize, scope snsapi_userinfo) with a state valid 10 ' +
        'minutes, once, from this browser (bound by an httpOnly cookie set on this response)',
    ),
});

/** `POST .../login`: what WeChat put on the return URL. */
export const wechatLoginSchema = z.object({
  code: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1)
    .max(256)
    .describe('The code WeChat put on the return URL'),
  state: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1)
    .max(128)
    .describe('The state WeChat put on the return URL'),
});

/** `POST .../login` answer: a token for a linked WeChat user, else a registration ticket. */
export const wechatLoginAnswerSchema = z.union([
  tokenSchema.describe('A linked WeChat user: signed in'),
  z
    .object({
      registration_ticket: z.string(),
      expires_at: wireTime,
      nickname: z.string(),
      avatar: z.string().nullable(),
      registration: z.boolean().describe('Whether new accounts may be created'),
    })
    .describe('A WeChat user not linked yet: a ticket for POST register, and what to prefill'),
]);
export type WechatLoginAnswer = z.infer<typeof wechatLoginAnswerSchema>;

/** `GET .../identity` answer. */
export const wechatIdentityAnswerSchema = z.object({
  enabled: z.boolean().describe('Whether WeChat sign-in is on'),
  has_password: z.boolean().describe('Unlinking needs a password to sign in with'),
  identity: z.object({ nickname: z.string(), avatar: z.string().nullable(), linked_at: wireTime }).nullable(),
});
export type WechatIdentityAnswer = z.infer<typeof wechatIdentityAnswerSchema>;

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
    ticket: z
      .string({ error: 'validation.required' })
      .min(1)
      .max(128)
      .describe('registration_ticket from POST login'),
    link: z
      .object({
        username: z
          .string({ error: 'validation.username_required' })
          .trim()
          .min(1, 'validation.username_required')
          .max(254)
          .describe('Username, email or phone'),
        password: z
          .string({ error: 'validation.password_required' })
          .min(1, 'validation.password_required')
          .max(1024),
      })
      .describe('Link to an existing account instead of creating one')
      .optional(),
    username: optionalText,
    password: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .meta({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description: 'Optional' }),
    password_confirmation: z.string().optional(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .optional()
      .transform((v) => (v ? v : undefined))
      .describe('Optional; needs captcha (scene register)'),
    phone: optionalText.describe('Optional; needs captcha (scene register)'),
    captcha: optionalText.meta({ pattern: CODE_PATTERN.source }),
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

/** The WeChat routes answer 404 while WeChat sign-in is off (settings `login`): a route schema part. */
export const WECHAT_OFF = { 'x-errors': [404] };
