import { DEFAULT_LOCALE, LOCALES } from '../../locales/languages.ts';
import type { Locale } from '../../locales/languages.ts';

/** The localStorage key the spec fixes for the interface language. */
export const LOCALE_KEY = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The stored locale, or null when none (or an unsupported one) is stored. */
export function getStoredLocale(): Locale | null {
  try {
    const value = localStorage.getItem(LOCALE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    // Private mode or a full quota: the locale then lasts for this page only.
  }
}

/** The locale to send as Accept-Language and to render with: stored, else zh-CN. */
export function currentLocale(): Locale {
  return getStoredLocale() ?? DEFAULT_LOCALE;
}

/**
 * Spec 9: on first load (nothing stored) the first language of the server config wins; otherwise the stored
 * locale is kept; zh-CN when neither gives a supported language.
 */
export function resolveInitialLocale(serverLanguages: readonly string[] | undefined): Locale {
  const stored = getStoredLocale();
  if (stored) return stored;
  const first = serverLanguages?.find(isLocale);
  return first ?? DEFAULT_LOCALE;
}
