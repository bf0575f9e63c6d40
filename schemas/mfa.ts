import * as z from 'zod';
import { tokenSchema } from './auth.ts';

/** Second factors a user may finish a two-step sign-in with (issue 31). */
export const MFA_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** An authenticator app's code: six digits (spaces typed between groups are dropped). */
export const TOTP_PATTERN = /^\d{6}$/;
/** A recovery code as shown: four groups of four letters/digits, the dashes optional when typed. */
export const RECOVERY_PATTERN = /^[a-z2-7]{4}(?:-?[a-z2-7]{4}){3}$/i;

const totpCode = z
  .string({ error: 'validation.required' })
  .transform((v) => v.replace(/\s+/g, ''))
  .refine((v) => TOTP_PATTERN.test(v), { message: 'auth.mfa.code_format' });

/** The first step's answer for a user with a second factor: no access token yet. */
export const mfaRequiredSchema = z.object({
  mfa_required: z.literal(true),
  mfa_token: z.string(),
  methods: z.array(z.enum(MFA_METHODS)),
});
export type MfaRequired = z.infer<typeof mfaRequiredSchema>;

/**
 * The first step's answer for a user the `login.require_2fa` policy covers who has no second factor: the
 * `enrolment_token` is a Bearer token good for the TOTP enrolment and passkey registration calls alone;
 * confirming a TOTP code or registering a passkey with it answers the session.
 */
export const mfaEnrolmentRequiredSchema = z.object({
  mfa_enrolment_required: z.literal(true),
  enrolment_token: z.string(),
  methods: z.array(z.enum(MFA_METHODS)),
});
export type MfaEnrolmentRequired = z.infer<typeof mfaEnrolmentRequiredSchema>;

/** What `POST v1/user/login` (and every other first factor) answers. */
export const signInAnswerSchema = z.union([tokenSchema, mfaRequiredSchema, mfaEnrolmentRequiredSchema]);

/** `POST v1/user/login/2fa`: the token of the first step and one of the two codes. */
export const mfaLoginSchema = z
  .object({
    mfa_token: z
      .string({ error: 'validation.required' })
      .min(1, 'validation.required')
      .max(200, 'auth.mfa.expired'),
    code: totpCode.optional(),
    recovery_code: z
      .string({ error: 'validation.required' })
      .trim()
      .refine((v) => RECOVERY_PATTERN.test(v), { message: 'auth.mfa.recovery_format' })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.code === undefined) === (value.recovery_code === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'auth.mfa.one_code' });
    }
  });

/** `POST v1/user/2fa/totp`: a new secret to scan (not active until confirmed). */
export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr_svg: z.string(),
});

/** `POST v1/user/2fa/totp/confirm`. */
export const totpConfirmSchema = z.object({ code: totpCode });
export const recoveryCodesSchema = z.object({
  recovery_codes: z.array(z.string()),
  /** Only when enrolling with an enrolment token: the session the sign-in was waiting for. */
  access_token: z.string().optional(),
  expires_at: z.string().nullable().optional(),
});

/** `DELETE v1/user/2fa/totp`: the account password, as for every change of how one signs in. */
export const totpDisableSchema = z.object({
  password: z
    .string({ error: 'validation.password_required' })
    .min(1, 'validation.password_required')
    .max(1024, 'auth.old_password_incorrect'),
});

/** `GET v1/user/2fa`: which second factors the caller has. */
export const mfaStatusSchema = z.object({
  totp: z.boolean(),
  recovery_codes_left: z.number().int(),
  passkeys: z.number().int(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** A browser's WebAuthn answer as @simplewebauthn/browser sends it (checked by @simplewebauthn/server). */
const b64 = z.string({ error: 'auth.passkey.invalid' }).max(16_384, 'auth.passkey.invalid');
export const webauthnResponseSchema = z.looseObject({
  id: b64,
  rawId: b64,
  type: z.literal('public-key', { error: 'auth.passkey.invalid' }),
  response: z.looseObject({ clientDataJSON: b64 }),
});

const passkeyName = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(60, 'auth.passkey.name_format');

/** `POST v1/user/passkeys`: the answer to the registration options, and a name the user knows it by. */
export const passkeyRegisterSchema = z.object({ name: passkeyName, response: webauthnResponseSchema });
/** `PATCH v1/user/passkeys/<id>`. */
export const passkeyRenameSchema = z.object({ name: passkeyName });
/** `GET v1/user/passkeys` items. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
/** `POST v1/user/passkeys`: the new passkey; with an enrolment token also the session, as the TOTP confirm. */
export const passkeyRegisteredSchema = passkeySchema.extend({
  access_token: z.string().optional(),
  expires_at: z.string().nullable().optional(),
});

/** `POST v1/user/login/passkey/options`: with the first step's `mfa_token` for a second step. */
export const passkeyLoginOptionsSchema = z.object({
  mfa_token: z.string().max(200, 'auth.mfa.expired').optional(),
});
/** `POST v1/user/login/passkey`. */
export const passkeyLoginSchema = z.object({
  response: webauthnResponseSchema,
  mfa_token: z.string().max(200, 'auth.mfa.expired').optional(),
  remember: z.boolean().optional().default(false),
});
/** The options handed to `navigator.credentials` (WebAuthn's JSON forms), left as the library writes them. */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });
