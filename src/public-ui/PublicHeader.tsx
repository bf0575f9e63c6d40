import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../locales/languages.ts';
import { AVAILABLE_LOCALES, i18n } from '../i18n/i18n.ts';
import { useThemeMode } from '../theme/preferences.ts';
import { Button } from './controls.tsx';
import { Icon } from './icons.tsx';

/** The signed-out pages' header: the language menu and the light/dark switch, at the right. */
export function PublicHeader() {
  return (
    <header className="pu-header">
      <LanguageMenu />
      <ThemeSwitch />
    </header>
  );
}

/**
 * The language menu (WAI-ARIA menu button): the button names the current language first (WCAG 2.5.3); the
 * menu opens on click, Enter, Space or ArrowDown with focus on the current language, arrows, Home and End move,
 * Enter or a click chooses, Escape closes and gives focus back to the button, Tab closes and moves on from
 * the button, a click outside closes.
 * Persisting the choice happens on i18next's languageChanged event.
 */
export function LanguageMenu() {
  const { t, i18n: active } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const current = AVAILABLE_LOCALES.find((entry) => entry.locale === active.language);
  const name = current?.name ?? active.language;

  useEffect(() => {
    if (!isOpen) return;
    const items = menuItems(menuRef.current);
    (items.find((item) => item.getAttribute('aria-current') === 'true') ?? items[0])?.focus();
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [isOpen]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };
  const choose = (locale: Locale) => {
    close(true);
    void i18n.changeLanguage(locale);
  };
  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = menuItems(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') {
      // From the button, so the browser's Tab goes on to the control after (or, with Shift, before) it.
      close(true);
      return;
    } else return;
    event.preventDefault();
  };

  return (
    <div className="pu-menu-anchor">
      <Button
        ref={buttonRef}
        color="inherit"
        startIcon={<Icon name="translate" />}
        aria-label={t('app.language.button', { name })}
        aria-haspopup="menu"
        aria-controls={isOpen ? menuId : undefined}
        aria-expanded={isOpen ? 'true' : undefined}
        onClick={() => setOpen(!isOpen)}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {name}
      </Button>
      {isOpen ? (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={t('app.language.switch')}
          className="pu-menu"
          onKeyDown={onMenuKey}
        >
          {AVAILABLE_LOCALES.map((entry) => (
            <li
              key={entry.locale}
              role="menuitem"
              tabIndex={-1}
              lang={entry.locale}
              aria-current={entry.locale === active.language ? 'true' : undefined}
              className="pu-menu-item"
              onClick={() => choose(entry.locale)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' && event.key !== ' ') return;
                event.preventDefault();
                choose(entry.locale);
              }}
            >
              {entry.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')] : [];
}

/** Switches light/dark; the choice is kept in localStorage (`theme`), the hint is the browser's (`title`). */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const [mode, setMode] = useThemeMode();
  const label = mode === 'dark' ? t('app.theme.light') : t('app.theme.dark');
  return (
    <button
      type="button"
      className="pu-icon-btn"
      aria-label={label}
      title={label}
      onClick={() => setMode(mode === 'dark' ? 'light' : 'dark')}
    >
      <Icon name={mode === 'dark' ? 'light' : 'dark'} />
    </button>
  );
}
