import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../theme/preferences.ts';

/**
 * Switches light/dark; the choice is kept in localStorage (`theme`). The hint is the browser's own (`title`):
 * MUI's Tooltip would put Popper and its transitions (about 15 kB gzip) in the admin shell. The signed-out pages
 * have their own switch (src/public-ui/PublicHeader.tsx).
 */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [mode, setMode] = useThemeMode();
  const label = mode === 'dark' ? t('app.theme.light') : t('app.theme.dark');
  return (
    <IconButton
      color="inherit"
      aria-label={label}
      title={label}
      onClick={() => setMode(mode === 'dark' ? 'light' : 'dark')}
    >
      {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
    </IconButton>
  );
}
