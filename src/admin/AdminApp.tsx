import { Suspense, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { CustomRoutes } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Navigate, Route } from 'react-router-dom';
import { PERMISSION } from '../../schemas/permissions.ts';
import { RequirePermission } from '../components/RequirePermission.tsx';
import { i18n, getI18nextProvider } from '../i18n/i18n.ts';
import { SettingsLayout } from '../layouts/SettingsLayout.tsx';
import { LoadingState } from '../components/LoadingState.tsx';
import { ErrorPage } from '../pages/errors/ErrorPage.tsx';
import { PlaceholderPage } from '../pages/settings/PlaceholderPage.tsx';
import { authProvider } from '../providers/authProvider.ts';
import { createDataProvider } from '../engine/data/dataProvider.ts';
import { preferenceStore } from '../engine/data/preferenceStore.ts';
import { queryClient } from '../providers/queryClient.ts';
import { Guard } from '../navigation/Guard.tsx';
import { useThemeMode } from '../theme/preferences.ts';
import { AdminLanguageSwitcher } from './AdminLanguageSwitcher.tsx';
import { adminTheme } from './adminTheme.ts';
import { LeanAdmin } from './LeanAdmin.tsx';
import { lazyScreen } from './lazyScreen.ts';
import { useRowCheckboxLabels } from './useRowCheckboxLabels.ts';
import { settingsRoutes } from './settingsRoutes.tsx';

// Pages other than the lists load on first visit, with the messages they show: opening the admin at a list
// downloads neither.
const PasswordPage = lazyScreen(
  () => import('../pages/account/PasswordPage.tsx'),
  (m) => m.PasswordPage,
);
const SecurityPage = lazyScreen(
  () => import('../pages/account/SecurityPage.tsx'),
  (m) => m.SecurityPage,
);
const SessionsPage = lazyScreen(
  () => import('../pages/account/SessionsPage.tsx'),
  (m) => m.SessionsPage,
);
const TokensPage = lazyScreen(
  () => import('../pages/account/TokensPage.tsx'),
  (m) => m.TokensPage,
);
const ProfilePage = lazyScreen(
  () => import('../pages/account/ProfilePage.tsx'),
  (m) => m.ProfilePage,
);
// The dashboard's recent activity reads in the activity log's words (settings).
const DashboardPage = lazyScreen(
  () => import('../pages/dashboard/DashboardPage.tsx'),
  (m) => m.DashboardPage,
  ['system', 'settings'],
);
const GeneralSettingsPage = lazyScreen(
  () => import('../pages/settings/general/GeneralSettingsPage.tsx'),
  (m) => m.GeneralSettingsPage,
  ['settings'],
);
// The layout of /dashboard and /account (the settings pages have their own).
const MainShell = lazyScreen(
  () => import('./MainShell.tsx'),
  (m) => m.MainShell,
);
// The account area's tabs too (MUI Tabs with its scroll buttons): only /account shows them.
const AccountTabs = lazyScreen(
  () => import('../layouts/AccountTabs.tsx'),
  (m) => m.AccountTabs,
);

/** Every registered resource, on the API contract (src/engine). */
const dataProvider = createDataProvider();

/**
 * The signed-in part of the app (/account, /dashboard, /settings), loaded as its own chunk so the public pages
 * never download react-admin. Every route carries its own guard and layout, hence `noLayout`; the settings
 * routes come from `settingsRoutes` (the extension point for resource screens).
 */
export function AdminApp() {
  const [mode] = useThemeMode();
  const { t } = useTranslation();
  const loadingLabel = t('app.loading');
  const theme = useMemo(() => adminTheme(mode, { loadingLabel }), [mode, loadingLabel]);
  useRowCheckboxLabels();
  // react-admin keeps its own copy of the locale; start it from the one the public pages may have changed.
  // List state stays in memory; screen preferences (columns, density) are kept in localStorage.
  const [store] = useState(() => preferenceStore({ locale: i18n.language }));
  return (
    <LeanAdmin
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={getI18nextProvider()}
      queryClient={queryClient}
      store={store}
      theme={theme}
      layout={PassThrough}
      catchAll={NotFound}
    >
      <CustomRoutes noLayout>
        <Route
          path="/account"
          element={
            <Guard auth>
              <Shell preload={AccountTabs.preload}>
                <AccountTabs />
              </Shell>
            </Guard>
          }
        >
          <Route index element={<Navigate to="profile" replace />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="password" element={<PasswordPage />} />
          <Route path="security" element={<SecurityPage />} />
          <Route path="sessions" element={<SessionsPage />} />
          <Route path="tokens" element={<TokensPage />} />
        </Route>
        <Route
          path="/dashboard"
          element={
            <Guard staff>
              <Shell preload={DashboardPage.preload}>
                <DashboardPage />
              </Shell>
            </Guard>
          }
        />
        <Route
          path="/settings"
          element={
            <Guard staff>
              <SettingsLayout languageSwitcher={<AdminLanguageSwitcher />} />
            </Guard>
          }
        >
          <Route
            index
            element={
              <RequirePermission name={PERMISSION.settingsGeneral}>
                <GeneralSettingsPage />
              </RequirePermission>
            }
          />
          {settingsRoutes.map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={<RequirePermission name={route.permission}>{route.element}</RequirePermission>}
            />
          ))}
          <Route path=":channel" element={<PlaceholderPage />} />
        </Route>
      </CustomRoutes>
    </LeanAdmin>
  );
}

/**
 * The /dashboard and /account layout, with a full-page loading state while its chunk loads. `preload` starts
 * the page's own download at the same time, instead of after the layout's.
 */
function Shell({ children, preload }: { children: ReactNode; preload: () => void }) {
  useEffect(preload, [preload]);
  return (
    <Suspense fallback={<LoadingState fullScreen />}>
      <MainShell>{children}</MainShell>
    </Suspense>
  );
}

function PassThrough({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}

function NotFound() {
  return <ErrorPage code={404} />;
}
