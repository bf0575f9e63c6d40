import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageProvider } from './i18n/LanguageProvider.tsx';
import { useSiteTitle } from './providers/siteStatus.ts';
import { useThemeMode } from './theme/preferences.ts';
import { themeOptions } from './theme/theme.ts';

/**
 * What every page needs, public or admin: i18next and the MUI theme of the stored light/dark mode, and the
 * document title. No router and no react-query: the signed-out start (src/PublicApp.tsx) runs with these
 * alone; AppProviders adds react-router's navigation and the query cache for the full app.
 */
export function PublicProviders({ children }: { children: ReactNode }) {
  return (
    <LanguageProvider>
      <ThemeRoot>{children}</ThemeRoot>
    </LanguageProvider>
  );
}

function ThemeRoot({ children }: { children: ReactNode }) {
  const [mode] = useThemeMode();
  const { t } = useTranslation();
  const loadingLabel = t('app.loading');
  const theme = useMemo(() => createTheme(themeOptions(mode, { loadingLabel })), [mode, loadingLabel]);
  useSiteTitle();
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
