import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from './preferences.ts';
import { themeOptions } from './theme.ts';

/**
 * The MUI theme of the stored light/dark mode (and CssBaseline, unless `baseline` is false) for the pages built
 * with MUI: the full app (AppProviders) and the WeChat return page's account dialogs. The signed-out start
 * does without it (src/public-ui/), so the sign-in page downloads neither MUI nor emotion.
 *
 * @example
 * <PublicProviders><MuiThemeRoot>{children}</MuiThemeRoot></PublicProviders>
 */
export function MuiThemeRoot({ children, baseline = true }: { children: ReactNode; baseline?: boolean }) {
  const [mode] = useThemeMode();
  const { t } = useTranslation();
  const loadingLabel = t('app.loading');
  const theme = useMemo(() => createTheme(themeOptions(mode, { loadingLabel })), [mode, loadingLabel]);
  return (
    <ThemeProvider theme={theme}>
      {baseline ? <CssBaseline /> : null}
      {children}
    </ThemeProvider>
  );
}
