import * as z from 'zod';

/**
 * An IANA time zone name (`Asia/Shanghai`, `Europe/Berlin`, `UTC`) the runtime knows. Offsets such as
 * `+08:00` are refused: PostgreSQL reads their sign the POSIX way, the opposite of ISO 8601.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(name) || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Loopback hosts, where an OpenID provider may speak plain http (a provider on the same machine, tests). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An OpenID issuer: https, or http on loopback only; no query, fragment or credentials. */
export function isIssuerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.username || url.password || url.search || url.hash) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

/** The id of an OpenID provider entry: it names the provider in URLs (`v1/oidc/<id>/auth`). */
export const OIDC_PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * One OpenID Connect provider of the `login` settings (issue 31, contract Amendments 2026-11-26).
 * `client_secret` is write-only: never answered (`client_secret_set` says whether there is one) and kept when
 * a save omits it (server/modules/settings.ts).
 */
export const oidcProviderSchema = z.object({
  id: z.string().regex(OIDC_PROVIDER_ID, { message: 'settings.general.errors.oidc_id' }),
  label: z.string().trim().min(1).max(60),
  issuer: z.string().trim().max(500).refine(isIssuerUrl, { message: 'settings.general.errors.oidc_issuer' }),
  client_id: z.string().trim().min(1).max(200),
  client_secret: z.string().max(500).default(''),
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/))
    .max(20)
    .default(['openid', 'email', 'profile'])
    .overwrite((scopes) => (scopes.includes('openid') ? scopes : ['openid', ...scopes])),
  /** The claim a new account's username is taken from (auto_create). */
  claim_username: z.string().trim().min(1).max(64).default('preferred_username'),
  /** An unknown subject gets a new account (a staff member with `default_role_ids` when there are any). */
  auto_create: z.boolean().default(false),
  default_role_ids: z
    .array(z.string().regex(/^\d{1,19}$/))
    .max(50)
    .default([]),
});
export type OidcProvider = z.output<typeof oidcProviderSchema>;

/** Settings groups of the contract (`v1/settings/<name>`), each a zod schema with defaults. */
export const settingsSchemas = {
  basic: z.object({
    upload_max_size: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    activity_retention_days: z.number().int().min(1).max(3650).default(180),
    /** Records stay this long in the trash, then the scheduled task `trash.purge` deletes them for good. */
    trash_retention_days: z.number().int().min(1).max(3650).default(30),
  }),
  site: z.object({
    site_name: z.string().trim().min(1).max(60).default('Admin'),
    /** Times in CSV exports and imports are written and read in this zone (IANA name). */
    timezone: z
      .string()
      .trim()
      .refine(isTimeZone, { message: 'validation.timezone' })
      .default('Asia/Shanghai'),
    /** Logo on the sign-in card: an https:// address or a path on this site (`/uploads/logo.png`); '' = none. */
    site_logo: z
      .string()
      .trim()
      .max(500)
      .regex(/^(?:|https:\/\/\S+|\/(?:[^/\s]\S*)?)$/, { message: 'validation.invalid' })
      .default(''),
  }),
  languages: z.object({
    languages: z
      .array(z.enum(['zh-CN', 'en']))
      .min(1)
      .default(['zh-CN', 'en']),
  }),
  currency: z.object({
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default('CNY'),
    decimals: z.number().int().min(0).max(4).default(0),
  }),
  country: z.object({
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .default('CN'),
    phone_pattern: z.string().max(200).default('^1\\d{10}$'),
  }),
  login: z.object({
    registration: z.boolean().default(true),
    methods: z.array(z.enum(['password', 'code', 'wechat'])).default(['password']),
    wechat_enabled: z.boolean().default(false),
    wechat_app_id: z.string().max(64).default(''),
    wechat_app_secret: z.string().max(128).default(''),
    /** Issue 31: who must have a second factor (`admins`: is_admin staff; `staff`: every staff member). */
    require_2fa: z.enum(['none', 'admins', 'staff']).default('none'),
    /** Issue 31: OpenID Connect providers, each a button on the sign-in page. */
    oidc_providers: z
      .array(oidcProviderSchema)
      .max(10)
      .default([])
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, {
        message: 'settings.general.errors.oidc_duplicate',
      }),
  }),
  message: z.object({
    /** smtp(s)://user:pass@host:port; empty means "use SMTP_URL from the environment". */
    smtp_url: z.string().max(500).default(''),
    mail_from: z.string().max(254).default(''),
    /** Per language; `{{code}}`, `{{minutes}}`, `{{site_name}}` and `{{url}}` are filled in. Empty: built-in text. */
    templates: z
      .record(
        z.string(),
        z.object({
          code_subject: z.string().max(200).default(''),
          code_body: z.string().max(5000).default(''),
          invitation_subject: z.string().max(200).default(''),
          invitation_body: z.string().max(5000).default(''),
        }),
      )
      .default({}),
  }),
  /** Named staff levels, in order (lowest first). */
  level: z.object({
    levels: z.array(z.string().trim().min(1).max(30)).max(50).default([]),
  }),
  sms: z.object({
    /** '' means not configured (unless SMS_ENDPOINT is set, which selects `http`). */
    provider: z.enum(['', 'log', 'http']).default(''),
    endpoint: z.string().max(500).default(''),
    access_key_id: z.string().max(200).default(''),
    access_key_secret: z.string().max(200).default(''),
    sign_name: z.string().max(60).default(''),
    template: z.string().max(200).default(''),
  }),
} as const;

export type SettingsGroup = keyof typeof settingsSchemas;
export type SettingsOf<G extends SettingsGroup> = z.output<(typeof settingsSchemas)[G]>;

/**
 * Keys that say where codes, invitations and mail go (API contract, Amendments, "Delivery settings and
 * lockout"): only administrators or holders of `system.settings.delivery` change them. The SMS sign name and
 * template shape the text, not where it goes, so general settings writers keep them.
 */
export const DELIVERY_KEYS: Partial<Record<SettingsGroup, readonly string[]>> = {
  message: ['smtp_url', 'mail_from'],
  sms: ['provider', 'endpoint', 'access_key_id', 'access_key_secret'],
};
