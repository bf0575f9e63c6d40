import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../locales/index.ts';
import { AVAILABLE_LOCALES, i18n } from '../i18n/i18n.ts';

export interface LanguageSwitcherProps {
  /** How to switch; the admin shell passes react-admin's setter so its own screens re-render too. */
  onChange?: (locale: Locale) => void | Promise<void>;
}

/** The header's language menu. Persisting the choice happens on i18next's languageChanged event. */
export function LanguageSwitcher({ onChange }: LanguageSwitcherProps) {
  const { t, i18n: active } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const current = AVAILABLE_LOCALES.find((entry) => entry.locale === active.language);

  const choose = (locale: Locale) => {
    setAnchor(null);
    void (onChange ? onChange(locale) : i18n.changeLanguage(locale));
  };

  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        aria-label={t('app.language.switch')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ textTransform: 'none' }}
      >
        {current?.name ?? active.language}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {AVAILABLE_LOCALES.map((entry) => (
          <MenuItem
            key={entry.locale}
            lang={entry.locale}
            selected={entry.locale === active.language}
            onClick={() => choose(entry.locale)}
          >
            {entry.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
