import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState.tsx';
import { ThemeToggle } from '../components/ThemeToggle.tsx';
import { PaletteButton } from '../palette/PaletteButton.tsx';
import { useSiteConfig } from '../providers/useSiteConfig.ts';
import { PageHeader } from './PageHeader.tsx';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.tsx';
import { useHeadingFocus } from './useHeadingFocus.ts';

export interface MainLayoutProps {
  children: ReactNode;
  /** Header slots filled by the admin shell (react-admin aware switcher and sign-out). */
  languageSwitcher: ReactNode;
  accountMenu: ReactNode;
  /** Shown to staff only. */
  isStaff?: boolean;
}

/** The wide layout without a side menu (dashboard, account): site name, main links and header tools. */
export function MainLayout({ children, languageSwitcher, accountMenu, isStaff = false }: MainLayoutProps) {
  const { t } = useTranslation();
  const { site_name: siteName } = useSiteConfig();
  useHeadingFocus();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink />
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar sx={{ gap: 1 }}>
          <Link
            component={RouterLink}
            to={isStaff ? '/dashboard' : '/account'}
            variant="h6"
            color="inherit"
            underline="none"
            noWrap
            sx={{ flex: 1 }}
          >
            {siteName || t('app.dashboard.title')}
          </Link>
          {isStaff ? (
            <Button color="inherit" component={RouterLink} to="/settings">
              {t('app.nav.settings')}
            </Button>
          ) : null}
          <PaletteButton />
          {languageSwitcher}
          <ThemeToggle />
          {accountMenu}
        </Toolbar>
      </AppBar>
      <Container
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        maxWidth="lg"
        sx={{ py: 3, '&:focus': { outline: 'none' } }}
      >
        {/* The dashboard and account pages carry their own <h1>; the header adds crumbs and the title. */}
        <PageHeader heading={false} />
        <Suspense fallback={<LoadingState />}>{children}</Suspense>
      </Container>
    </Box>
  );
}
