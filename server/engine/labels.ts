import { translate, type Locale } from '../../locales/index.ts';
import type { Resource } from '../../resources/define.ts';
import { fieldByName } from './schema/fields.ts';

/**
 * The language side of a request, all that labels and CSV formatting need: a request is one (it has `locale`
 * and `t`), and a background job builds one from the locale it was queued with (`langOf(locale)`).
 */
export interface Lang {
  locale: Locale;
  t(key: string, params?: Record<string, unknown>): string;
}

/** A `Lang` for a locale outside any request. Example: `fieldLabel(langOf('en'), resource, 'name')`. */
export function langOf(locale: Locale): Lang {
  return { locale, t: (key, params) => translate(locale, key, params) };
}

/** A field's label in the caller's language: `meta.label`, else `resources.<name>.fields.<field>`, else the name. */
export function fieldLabel(lang: Lang, resource: Resource, field: string): string {
  const key = fieldByName(resource, field)?.meta.label ?? `resources.${resource.name}.fields.${field}`;
  const text = lang.t(key);
  return text === key ? field : text;
}

/** An enum value's label: `resources.<name>.enums.<field>.<value>`, else the value itself. */
export function enumLabel(lang: Lang, resource: Resource, field: string, value: string): string {
  const key = `resources.${resource.name}.enums.${field}.${value}`;
  const text = lang.t(key);
  return text === key ? value : text;
}
