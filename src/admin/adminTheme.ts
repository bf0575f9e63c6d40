import { defaultDarkTheme, defaultLightTheme } from 'react-admin';
import type { RaThemeOptions } from 'react-admin';
import type { ThemeMode } from '../theme/preferences.ts';
import { themeOptions } from '../theme/theme.ts';

/** react-admin's default theme (it styles react-admin's own components) with our palette and shape on top. */
export function adminTheme(mode: ThemeMode): RaThemeOptions {
  const base = mode === 'dark' ? defaultDarkTheme : defaultLightTheme;
  const ours = themeOptions(mode);
  return { ...base, palette: { ...base.palette, ...ours.palette }, shape: { ...base.shape, ...ours.shape } };
}
