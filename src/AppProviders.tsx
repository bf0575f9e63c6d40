import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageProvider } from './i18n/LanguageProvider.tsx';
import { useSiteTitle } from './providers/useSiteConfig.ts';
import { useThemeMode } from './theme/preferences.ts';
import { themeOptions } from './theme/theme.ts';

/**
 * Everything every page needs, public or admin: the shared query cache, i18next and the MUI theme of the
 * stored light/dark mode. The router is left to the caller so tests can use a MemoryRouter.
 */
export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <LanguageProvider>
        <ThemeRoot>{children}</ThemeRoot>
      </LanguageProvider>
    </QueryClientProvider>
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
