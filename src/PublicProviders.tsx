import { useLayoutEffect } from 'react';
import type { ReactNode } from 'react';
import { LanguageProvider } from './i18n/LanguageProvider.tsx';
import { useSiteTitle } from './providers/siteStatus.ts';
import { useThemeMode } from './theme/preferences.ts';

/**
 * What every page needs, public or admin: i18next, the stored light/dark mode as `data-theme` on <html> (the
 * colours of src/public-ui/public-ui.css), and the document title. No router, no react-query and no MUI: the
 * signed-out start (src/PublicApp.tsx) runs with these alone; AppProviders adds react-router's navigation,
 * the query cache and MUI's theme (src/theme/MuiThemeRoot.tsx) for the full app.
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
  // Before the first paint, so a dark page never flashes light.
  useLayoutEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);
  useSiteTitle();
  return <>{children}</>;
}
