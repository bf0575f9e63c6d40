import { useLocaleState } from 'react-admin';
import { LanguageSwitcher } from '../components/LanguageSwitcher.tsx';

/**
 * The language switcher inside react-admin: switching through its locale state makes react-admin re-render
 * its own screens too; i18next's languageChanged event then persists the choice.
 */
export function AdminLanguageSwitcher() {
  const [, setLocale] = useLocaleState();
  return <LanguageSwitcher onChange={(locale) => setLocale(locale)} />;
}
