import { createInstance } from 'i18next';
import type { BackendModule } from 'i18next';
import type { I18nProvider } from 'react-admin';
import { getI18nProvider } from 'ra-i18n-i18next';
import { addedMessages, onMessagesAdded } from '../../locales/additions.ts';
import { LOCALES, SCREEN_NAMESPACES, bundleOfNamespace } from '../../locales/languages.ts';
import type { Catalog, Locale, MessageBundle, ScreenBundle } from '../../locales/languages.ts';
import { isLocale, storeLocale } from './locale.ts';
import { loadMessages } from './messages.ts';

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
 * Where i18next gets its messages: the i18next namespaces are the bundles of locales/languages.ts, `public`
 * (loaded by initI18n), `admin` and the screens' `settings` and `system` (loaded by loadAdminMessages), each
 * downloaded for one language only when it is needed. A language switch reloads every bundle loaded so far,
 * and i18next waits for them before it reports the language as changed, so a switch never shows keys or
 * the other language's text.
 */
const messagesBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isLocale(language) || !isBundle(namespace)) {
      callback(null, {});
      return;
    }
    loadMessages(language, namespace).then(
      (messages) => callback(null, withAdded(messages, language, namespace)),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

// Messages added at run time (locales/additions.ts) join a bundle already loaded; one loaded later gets them
// in messagesBackend. Before init, i18next has no store yet (an admin chunk can load, and add its messages,
// while GET /api/v1 is still under way): then every bundle is loaded later and gets them there.
onMessagesAdded((locale, messages) => {
  if (!(i18n.store as typeof i18n.store | undefined)) return;
  for (const [bundle, part] of splitByBundle(messages)) {
    if (i18n.hasResourceBundle(locale, bundle)) i18n.addResourceBundle(locale, bundle, part, true, true);
  }
});

/**
 * Initialises i18next with the public messages of `locale` and builds react-admin's i18nProvider with
 * ra-i18n-i18next. Resolves once `t` is usable, so the first render never shows a key.
 */
export async function initI18n(locale: Locale): Promise<I18nProvider> {
  if (provider) return provider;
  provider = await getI18nProvider(
    i18n.use(messagesBackend),
    {
      lng: locale,
      // Both languages hold the same keys (locales/catalogs test), so nothing falls back; without a fallback
      // language i18next never downloads a second language.
      fallbackLng: false,
      supportedLngs: [...LOCALES],
      // Keep `zh-CN` as is instead of also trying a bare `zh`.
      load: 'currentOnly',
      ns: ['public'],
      defaultNS: 'public',
      // One flat key space (`ra.action.save`, `auth.login.title`) across the bundles.
      fallbackNS: ['admin', ...SCREEN_NAMESPACES],
      interpolation: { escapeValue: false },
      // react-admin passes free text (labels, titles) through translate(); a colon in it is not a namespace.
      nsSeparator: false,
      returnNull: false,
    },
    AVAILABLE_LOCALES,
  );
  return provider;
}

/**
 * Downloads the admin messages (react-admin's `ra`, the generated screens' and the shell's) of the current
 * language, and those of the screen bundles in `screens`; from then on a language switch loads them all in
 * the new language. Call before the admin shell renders, and before a screen showing a screen bundle's
 * texts renders (src/admin/lazyScreen.ts).
 *
 * @example
 * await loadAdminMessages(['system']); // the system pages' texts
 */
export async function loadAdminMessages(screens: readonly ScreenBundle[] = []): Promise<void> {
  await i18n.loadNamespaces(['admin', ...screens]);
}

/** Starts downloading a bundle early (start-up knows the stored language before GET /api/v1 answers). */
export function preloadMessages(locale: Locale, bundle: MessageBundle): void {
  void loadMessages(locale, bundle).catch(() => undefined);
}

/** The provider built by initI18n (the admin shell is only mounted after it). */
export function getI18nextProvider(): I18nProvider {
  if (!provider) throw new Error('initI18n() must run before the admin shell mounts');
  return provider;
}

function isBundle(namespace: string): namespace is MessageBundle {
  return (
    namespace === 'public' ||
    namespace === 'admin' ||
    (SCREEN_NAMESPACES as readonly string[]).includes(namespace)
  );
}

function withAdded(messages: Catalog, locale: Locale, bundle: MessageBundle): Catalog {
  let merged = messages;
  for (const added of addedMessages(locale)) {
    const part = splitByBundle(added).get(bundle);
    if (part) merged = deepMerge(merged, part);
  }
  return merged;
}

function splitByBundle(messages: Catalog): Map<MessageBundle, Catalog> {
  const parts = new Map<MessageBundle, Catalog>();
  for (const [namespace, value] of Object.entries(messages)) {
    const bundle = bundleOfNamespace(namespace);
    parts.set(bundle, { ...parts.get(bundle), [namespace]: value });
  }
  return parts;
}

function deepMerge(target: Catalog, source: Catalog): Catalog {
  const out: Catalog = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const previous = out[key];
    out[key] = isPlainObject(previous) && isPlainObject(value) ? deepMerge(previous, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Catalog {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
