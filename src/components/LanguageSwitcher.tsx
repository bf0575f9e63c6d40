import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import { Suspense, lazy, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../locales/languages.ts';
import { AVAILABLE_LOCALES, i18n } from '../i18n/i18n.ts';

const loadMenu = () => import('./LanguageMenu.tsx');
const LanguageMenu = lazy(() => loadMenu().then((m) => ({ default: m.LanguageMenu })));

export interface LanguageSwitcherProps {
  /** How to switch; the admin shell passes react-admin's setter so its own screens re-render too. */
  onChange?: (locale: Locale) => void | Promise<void>;
}

/**
 * The header's language menu. Persisting the choice happens on i18next's languageChanged event. The menu
 * itself loads when the pointer or focus first reaches the button (at the latest on the first click) and
 * then stays mounted, so it opens and closes with MUI's transitions as before.
 */
export function LanguageSwitcher({ onChange }: LanguageSwitcherProps) {
  const { t, i18n: active } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [hasOpened, setHasOpened] = useState(false);
  const menuId = useId();
  const current = AVAILABLE_LOCALES.find((entry) => entry.locale === active.language);

  const choose = (locale: Locale) => {
    setAnchor(null);
    void (onChange ? onChange(locale) : i18n.changeLanguage(locale));
  };
  const preload = () => void loadMenu().catch(() => undefined);

  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        // The visible language name starts the accessible name (WCAG 2.5.3), followed by what the button does.
        aria-label={t('app.language.button', { name: current?.name ?? active.language })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={(event) => {
          setHasOpened(true);
          setAnchor(event.currentTarget);
        }}
        sx={{ textTransform: 'none' }}
      >
        {current?.name ?? active.language}
      </Button>
      {hasOpened ? (
        <Suspense fallback={null}>
          <LanguageMenu
            id={menuId}
            anchor={anchor}
            current={active.language}
            onChoose={choose}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
