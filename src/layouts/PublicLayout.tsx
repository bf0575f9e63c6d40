import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../components/LoadingState.tsx';
import { LanguageSwitcher } from '../components/LanguageSwitcher.tsx';
import { ThemeToggle } from '../components/ThemeToggle.tsx';
import { setPageTitle } from '../providers/pageTitleStore.ts';
import { useNavigation } from '../routes/navigation.tsx';
import { usePublicSiteConfig } from '../providers/siteStatus.ts';
import { publicPageTitleOf } from './publicTitle.ts';

/** Frame of the sign-in, register and reset pages: MUI only, so they never pull in react-admin. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { site_name: siteName, site_logo: siteLogo } = usePublicSiteConfig();
  const { t } = useTranslation();
  const { pathname } = useNavigation().location;
  // document.title "<page> - <site name>" (joined in useSiteTitle), named from the route.
  const title = publicPageTitleOf(pathname, t);
  useEffect(() => setPageTitle(title), [title]);
  useEffect(() => () => setPageTitle(null), []);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, p: 1 }}>
        <LanguageSwitcher />
        <ThemeToggle />
      </Box>
      <Box
        component="main"
        sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}
      >
        <Paper sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
          {/* Whose back office this is; the page's own title stays the one heading. */}
          {siteLogo && isSafeLogo(siteLogo) ? (
            <Box
              component="img"
              src={siteLogo}
              alt={siteName ? `${siteName} logo` : 'logo'}
              sx={{ display: 'block', mx: 'auto', mb: 1, maxHeight: 64, maxWidth: '60%' }}
            />
          ) : null}
          {siteName ? (
            <Typography
              component="p"
              variant="subtitle1"
              align="center"
              color="text.secondary"
              sx={{ mb: 1, fontWeight: 600 }}
            >
              {siteName}
            </Typography>
          ) : null}
          <Suspense fallback={<LoadingState />}>{children}</Suspense>
        </Paper>
      </Box>
    </Box>
  );
}

/** A logo address the settings accept: https:// or a path on this site (never javascript: or data:). */
function isSafeLogo(url: string): boolean {
  return /^https:\/\/\S+$/.test(url) || /^\/(?!\/)\S*$/.test(url);
}
