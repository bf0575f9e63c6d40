import CloseIcon from '@mui/icons-material/Close';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, lazy, useId, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState.tsx';
import { ThemeToggle } from '../components/ThemeToggle.tsx';
import { PaletteButton } from '../palette/PaletteButton.tsx';
import { WIDE_SCREEN_QUERY } from '../lib/device.ts';
import { useSiteConfig } from '../providers/useSiteConfig.ts';
import { useSidebarCollapsed } from '../theme/preferences.ts';
import { DockedDrawer } from './DockedDrawer.tsx';
import { PageHeader } from './PageHeader.tsx';
import { SettingsMenu } from './SettingsMenu.tsx';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.tsx';
import { useHeadingFocus } from './useHeadingFocus.ts';

// A narrow screen's menu drawer loads when the menu button is first pointed at, focused or pressed.
const PhoneDrawer = lazy(() => import('./PhoneDrawer.tsx').then((m) => ({ default: m.PhoneDrawer })));

const WIDTH = 240;
const COLLAPSED_WIDTH = 64;

/**
 * The settings area frame: title = site name, a header with the menu collapse button, theme toggle, language
 * switch and a close button back to /dashboard, the permission-filtered side menu, and each page's breadcrumbs,
 * `<h1>` and document title (PageHeader). On wide screens the
 * menu collapses to icons (kept in localStorage); on narrow ones it is a drawer the button opens. That drawer
 * is mounted (closed; its code loads then) when the pointer or focus first reaches the button, at the latest
 * on the first press, and stays mounted, so it opens and closes with MUI's slide as before.
 */
export function SettingsLayout({ languageSwitcher }: { languageSwitcher: ReactNode }) {
  const { t } = useTranslation();
  const { site_name: siteName } = useSiteConfig();
  const isWide = useMediaQuery(WIDE_SCREEN_QUERY, { noSsr: true });
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const [isMobileOpen, setMobileOpen] = useState(false);
  const [isPhoneDrawerMounted, setPhoneDrawerMounted] = useState(false);
  const navId = useId();
  const isMenuShown = isWide ? !collapsed : isMobileOpen;
  const toggleLabel = isMenuShown ? t('app.sidebar.collapse') : t('app.sidebar.expand');
  const width = isWide && collapsed ? COLLAPSED_WIDTH : WIDTH;
  const mountPhoneDrawer = () => {
    if (!isWide) setPhoneDrawerMounted(true);
  };

  const menu = (
    <Box
      component="nav"
      id={navId}
      aria-label={t('app.sidebar.navigation')}
      sx={{ width, overflowX: 'hidden' }}
    >
      <Toolbar />
      <SettingsMenu
        collapsed={isWide && collapsed}
        onNavigate={isWide ? undefined : () => setMobileOpen(false)}
      />
    </Box>
  );

  useHeadingFocus();

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink />
      <AppBar
        position="fixed"
        color="default"
        elevation={1}
        sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}
      >
        <Toolbar sx={{ gap: 1 }}>
          <Tooltip title={toggleLabel}>
            <IconButton
              edge="start"
              aria-label={toggleLabel}
              aria-controls={navId}
              aria-expanded={isMenuShown}
              onPointerEnter={mountPhoneDrawer}
              onFocus={mountPhoneDrawer}
              onClick={() => {
                if (isWide) {
                  setCollapsed(!collapsed);
                  return;
                }
                setPhoneDrawerMounted(true);
                setMobileOpen(!isMobileOpen);
              }}
            >
              {isMenuShown ? <MenuOpenIcon /> : <MenuIcon />}
            </IconButton>
          </Tooltip>
          <Typography variant="h6" component="p" noWrap sx={{ flex: 1 }}>
            {siteName || t('app.settings.title')}
          </Typography>
          <PaletteButton />
          {languageSwitcher}
          <ThemeToggle />
          <Tooltip title={t('app.settings.close')}>
            <IconButton component={RouterLink} to="/dashboard" aria-label={t('app.settings.close')}>
              <CloseIcon />
            </IconButton>
          </Tooltip>
        </Toolbar>
      </AppBar>
      {isWide ? (
        <DockedDrawer width={width}>{menu}</DockedDrawer>
      ) : isPhoneDrawerMounted ? (
        <Suspense fallback={null}>
          <PhoneDrawer open={isMobileOpen} onClose={() => setMobileOpen(false)}>
            {menu}
          </PhoneDrawer>
        </Suspense>
      ) : null}
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 3 }, '&:focus': { outline: 'none' } }}
      >
        <Toolbar />
        <PageHeader />
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
