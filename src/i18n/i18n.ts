import { createInstance } from 'i18next';
import type { I18nProvider } from 'react-admin';
import { getI18nProvider } from 'ra-i18n-i18next';
import { DEFAULT_LOCALE, LOCALES, catalogs } from '../../locales/index.ts';
import type { Locale } from '../../locales/index.ts';
import { isLocale, storeLocale } from './locale.ts';

/** The one i18next instance: react-admin translates through it, public pages use react-i18next on it. */
export const i18n = createInstance();

export const AVAILABLE_LOCALES: { locale: Locale; name: string }[] = [
  { locale: 'zh-CN', name: '简体中文' },
  { locale: 'en', name: 'English' },
];

let provider: I18nProvider | null = null;

// Every language change (switcher, react-admin, first-load negotiation) is persisted and announced to
// assistive technology through <html lang>.
i18n.on('languageChanged', (lng: string) => {
  if (!isLocale(lng)) return;
  storeLocale(lng);
  document.documentElement.lang = lng;
});

/**
 * Initialises i18next with every catalogue (they are small and bundled, so there is no loading state) and
 * builds react-admin's i18nProvider with ra-i18n-i18next. Resolves once `t` is usable.
 */
export async function initI18n(locale: Locale): Promise<I18nProvider> {
  if (provider) return provider;
  provider = await getI18nProvider(
    i18n,
    {
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      // Keep `zh-CN` as is instead of also trying a bare `zh`.
      load: 'currentOnly',
      resources: Object.fromEntries(LOCALES.map((lng) => [lng, { translation: catalogs[lng] }])),
      interpolation: { escapeValue: false },
      // react-admin passes free text (labels, titles) through translate(); a colon in it is not a namespace.
      nsSeparator: false,
      returnNull: false,
    },
    AVAILABLE_LOCALES,
  );
  return provider;
}

/** The provider built by initI18n (the admin shell is only mounted after it). */
export function getI18nextProvider(): I18nProvider {
  if (!provider) throw new Error('initI18n() must run before the admin shell mounts');
  return provider;
}
