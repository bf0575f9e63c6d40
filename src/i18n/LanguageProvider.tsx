import { useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { I18nContext } from 'react-i18next';
import { i18n } from './i18n.ts';

/**
 * react-i18next's context for the app, with the current language in its value so that a language change
 * re-renders every `useTranslation()` below it.
 *
 * Why not react-i18next's `I18nextProvider`: its value never changes, and each `useTranslation()` listens
 * for `languageChanged` only from an effect after its component's first render. A component that renders
 * while a switch is under way (the per-language catalogues arrive asynchronously) and commits just before
 * the catalogue lands misses the event and keeps the old language until something else re-renders it;
 * that left the sign-in heading in Chinese after a switch to English. This provider is subscribed from the
 * app's first render on, and useSyncExternalStore re-reads the language after subscribing, so no change is
 * lost; the new context value then reaches every consumer, however recently it mounted.
 *
 * @example
 * <LanguageProvider><App /></LanguageProvider>
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const language = useSyncExternalStore(subscribe, currentLanguage);
  const value = useMemo(() => ({ i18n, language }), [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

function currentLanguage(): string {
  return i18n.language;
}
