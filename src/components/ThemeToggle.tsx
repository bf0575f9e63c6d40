import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../theme/preferences.ts';

/** Switches light/dark; the choice is kept in localStorage (`theme`). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [mode, setMode] = useThemeMode();
  const label = mode === 'dark' ? t('app.theme.light') : t('app.theme.dark');
  return (
    <Tooltip title={label}>
      <IconButton
        color="inherit"
        aria-label={label}
        onClick={() => setMode(mode === 'dark' ? 'light' : 'dark')}
      >
        {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
