import {
  BooleanInput,
  CheckboxGroupInput,
  NumberInput,
  PasswordInput,
  SelectInput,
  TextInput,
  useTranslate,
} from 'react-admin';
import InputAdornment from '@mui/material/InputAdornment';
import { cloneElement, type ReactElement } from 'react';
import type { SettingField, SettingKind } from './groupFields.ts';
import { MailTemplatesInput } from './MailTemplatesInput.tsx';
import { OidcProvidersInput } from './OidcProvidersInput.tsx';

const MB = 1024 * 1024;
const label = (key: string) => `settings.general.fields.${key}`;
const optionLabel = (value: string, f?: SettingField) =>
  `settings.general.options.${f?.optionLabels?.[value] ?? (value || 'none')}`;

type Renderer = (
  field: SettingField,
  ctx: { isSet: boolean; hint?: string; translate: (k: string) => string },
) => ReactElement;

/** Settings key kind -> input (lookup table, like the engine's). */
const INPUTS: Record<SettingKind, Renderer> = {
  number: (f) => <NumberInput source={f.key} label={label(f.key)} />,
  megabytes: (f, { translate }) => (
    <NumberInput
      source={f.key}
      label={label(f.key)}
      step={1}
      format={(bytes: unknown) =>
        typeof bytes === 'number' ? Math.round((bytes / MB) * 1000) / 1000 : (bytes as number)
      }
      parse={(text: string) => (text === '' || text === null ? null : Math.round(Number(text) * MB))}
      InputProps={{
        endAdornment: <InputAdornment position="end">{translate('settings.screens.unit_mb')}</InputAdornment>,
      }}
    />
  ),
  text: (f) => <TextInput source={f.key} label={label(f.key)} />,
  boolean: (f) => <BooleanInput source={f.key} label={label(f.key)} />,
  secret: (f, { isSet, hint, translate }) => (
    <PasswordInput
      source={f.key}
      label={label(f.key)}
      autoComplete="new-password"
      helperText={
        hint ?? translate(isSet ? 'settings.general.secret_set' : 'settings.general.secret_not_set')
      }
    />
  ),
  select: (f) => (
    <SelectInput
      source={f.key}
      label={label(f.key)}
      choices={(f.options ?? []).map((value) => ({ id: value, name: optionLabel(value, f) }))}
      emptyValue=""
    />
  ),
  checkboxes: (f) => (
    <CheckboxGroupInput
      source={f.key}
      label={label(f.key)}
      choices={(f.options ?? []).map((value) => ({ id: value, name: optionLabel(value) }))}
    />
  ),
  list: (f) => (
    <TextInput
      source={f.key}
      label={label(f.key)}
      format={(value: unknown) => (Array.isArray(value) ? value.join(', ') : '')}
      parse={(text: string) =>
        text
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      }
    />
  ),
  oidc: (f) => <OidcProvidersInput source={f.key} />,
  templates: (f) => <MailTemplatesInput source={f.key} />,
  json: (f) => (
    <TextInput
      source={f.key}
      label={label(f.key)}
      multiline
      minRows={4}
      format={(value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? {}, null, 2))}
      parse={(text: string) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return text;
        }
      }}
    />
  ),
};

/**
 * One input of a settings group. `isSet` tells a secret whether a value is stored; `hint` replaces a
 * secret's "Set / Not set" when the group says more (where the SMTP URL in use comes from); `disabled` shows
 * the key read-only (a delivery key for someone who may not change it).
 */
export function SettingInput({
  field,
  isSet,
  hint,
  disabled = false,
}: {
  field: SettingField;
  isSet: boolean;
  hint?: string;
  disabled?: boolean;
}) {
  const translate = useTranslate();
  const input = INPUTS[field.kind](field, { isSet, hint, translate });
  return disabled ? cloneElement(input, { disabled: true } as Record<string, unknown>) : input;
}
