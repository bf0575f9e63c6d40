import type { ThemeOptions } from '@mui/material/styles';
import type { ThemeMode } from './preferences.ts';

/**
 * Theme options shared by the public pages and the admin shell (which merges them over react-admin's).
 * `loadingLabel` (the translated "Loading") names every progress indicator that has no name of its own.
 *
 * @example createTheme(themeOptions('dark', { loadingLabel: t('app.loading') }))
 */
export function themeOptions(mode: ThemeMode, { loadingLabel }: { loadingLabel: string }): ThemeOptions {
  return {
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#69a7ff' : '#1565c0' },
      background: mode === 'dark' ? { default: '#121212', paper: '#1e1e1e' } : { default: '#f5f6fa' },
    },
    shape: { borderRadius: 8 },
    components: {
      // MUI removes the outline of buttons, tabs, menu items, checkboxes and switches and marks keyboard
      // focus with a faint background only; keyboard users get a clear ring instead (WCAG 2.4.7).
      MuiButtonBase: {
        styleOverrides: {
          root: {
            '&.Mui-focusVisible, &:focus-visible': {
              outline: `2px solid ${focusRing(mode)}`,
              outlineOffset: 2,
            },
          },
        },
      },
      // A progressbar needs an accessible name (axe: aria-progressbar-name); a spinner's own aria-label wins.
      MuiCircularProgress: { defaultProps: { 'aria-label': loadingLabel } },
      MuiLinearProgress: { defaultProps: { 'aria-label': loadingLabel } },
      MuiLink: {
        styleOverrides: {
          root: { '&:focus-visible': { outline: `2px solid ${focusRing(mode)}`, outlineOffset: 2 } },
        },
      },
    },
  };
}

/** The keyboard focus ring: the primary colour, strong enough against both backgrounds (3:1 or more). */
function focusRing(mode: ThemeMode): string {
  return mode === 'dark' ? '#69a7ff' : '#1565c0';
}
