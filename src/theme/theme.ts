import type { ThemeOptions } from '@mui/material/styles';
import type { ThemeMode } from './preferences.ts';

/** Theme options shared by the public pages and the admin shell (which merges them over react-admin's). */
export function themeOptions(mode: ThemeMode): ThemeOptions {
  return {
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#69a7ff' : '#1565c0' },
      background: mode === 'dark' ? { default: '#121212', paper: '#1e1e1e' } : { default: '#f5f6fa' },
    },
    shape: { borderRadius: 8 },
  };
}
