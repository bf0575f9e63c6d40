import type { SettingsGroup } from '../../../../schemas/settings.ts';

/**
 * How one settings key is edited. `secret` keys are write-only: empty keeps the stored value. `megabytes`: a
 * byte count typed in MB (stored in bytes, as the API has it).
 */
export type SettingKind =
  | 'number'
  | 'megabytes'
  | 'text'
  | 'boolean'
  | 'secret'
  | 'select'
  | 'checkboxes'
  | 'list'
  | 'json'
  | 'oidc'
  | 'templates';

export interface SettingField {
  key: string;
  kind: SettingKind;
  /** Choices of `select` / `checkboxes` (labels: settings.general.options.<value>, '' = none). */
  options?: readonly string[];
  /** Label keys of options whose value alone would collide (`none` of require_2fa is not "Not configured"). */
  optionLabels?: Readonly<Record<string, string>>;
}

/** The tabs of the general settings page, in the contract's order, and the inputs of each group. */
export const GROUP_FIELDS: Record<SettingsGroup, readonly SettingField[]> = {
  basic: [
    { key: 'upload_max_size', kind: 'megabytes' },
    { key: 'activity_retention_days', kind: 'number' },
    { key: 'trash_retention_days', kind: 'number' },
  ],
  sms: [
    { key: 'provider', kind: 'select', options: ['', 'log', 'http'] },
    { key: 'endpoint', kind: 'text' },
    { key: 'access_key_id', kind: 'text' },
    { key: 'access_key_secret', kind: 'secret' },
    { key: 'sign_name', kind: 'text' },
    { key: 'template', kind: 'text' },
  ],
  login: [
    { key: 'registration', kind: 'boolean' },
    { key: 'methods', kind: 'checkboxes', options: ['password', 'code', 'wechat'] },
    { key: 'wechat_enabled', kind: 'boolean' },
    { key: 'wechat_app_id', kind: 'text' },
    { key: 'wechat_app_secret', kind: 'secret' },
    {
      key: 'require_2fa',
      kind: 'select',
      options: ['none', 'admins', 'staff'],
      optionLabels: { none: 'require_none' },
    },
    { key: 'oidc_providers', kind: 'oidc' },
  ],
  site: [
    { key: 'site_name', kind: 'text' },
    { key: 'timezone', kind: 'text' },
    { key: 'site_logo', kind: 'text' },
  ],
  country: [
    { key: 'country', kind: 'text' },
    { key: 'phone_pattern', kind: 'text' },
  ],
  currency: [
    { key: 'currency', kind: 'text' },
    { key: 'decimals', kind: 'number' },
  ],
  languages: [{ key: 'languages', kind: 'list' }],
  level: [{ key: 'levels', kind: 'list' }],
  message: [
    { key: 'smtp_url', kind: 'secret' },
    { key: 'mail_from', kind: 'text' },
    { key: 'templates', kind: 'templates' },
  ],
};

export const GROUPS = [
  'basic',
  'sms',
  'login',
  'site',
  'country',
  'currency',
  'languages',
  'level',
  'message',
] as const satisfies readonly SettingsGroup[];
