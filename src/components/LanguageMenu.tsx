import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Locale } from '../../locales/languages.ts';
import { AVAILABLE_LOCALES } from '../i18n/i18n.ts';

/**
 * The language switcher's menu, a chunk of its own (LanguageSwitcher loads it on first use) so the admin
 * shell does not download MUI's Menu, Popover and Modal up front (the signed-out pages have their own menu,
 * src/public-ui/PublicHeader.tsx).
 */
export function LanguageMenu({
  id,
  anchor,
  current,
  onChoose,
  onClose,
}: {
  id: string;
  anchor: HTMLElement | null;
  current: string;
  onChoose: (locale: Locale) => void;
  onClose: () => void;
}) {
  return (
    <Menu id={id} anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {AVAILABLE_LOCALES.map((entry) => (
        <MenuItem
          key={entry.locale}
          lang={entry.locale}
          selected={entry.locale === current}
          onClick={() => onChoose(entry.locale)}
        >
          {entry.name}
        </MenuItem>
      ))}
    </Menu>
  );
}
