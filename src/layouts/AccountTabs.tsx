import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation } from 'react-router-dom';

const TABS = [
  { path: '/account/profile', label: 'app.account.profile' },
  { path: '/account/password', label: 'app.account.password' },
  { path: '/account/security', label: 'app.account.security' },
  { path: '/account/sessions', label: 'app.account.sessions' },
  { path: '/account/tokens', label: 'app.account.tokens' },
] as const;

/** /account's children (profile, password, sessions, tokens) as tabs over the page. */
export function AccountTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = TABS.find((tab) => pathname.startsWith(tab.path))?.path ?? false;
  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Tabs
        value={current}
        aria-label={t('app.account.title')}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ mb: 3 }}
      >
        {TABS.map((tab) => (
          <Tab key={tab.path} value={tab.path} label={t(tab.label)} component={RouterLink} to={tab.path} />
        ))}
      </Tabs>
      <Outlet />
    </Paper>
  );
}
