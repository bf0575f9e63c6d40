import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { PublicLoading } from './public-ui/controls.tsx';
import { loadAdminMessages } from './i18n/i18n.ts';
import { PublicLayout } from './layouts/PublicLayout.tsx';
import { ErrorPage } from './pages/errors/ErrorPage.tsx';
import { useNavigation } from './navigation/navigation.tsx';
import { isAdminPath } from './navigation/paths.ts';
import { PublicGuard } from './navigation/PublicGuard.tsx';

// Route-level code splitting: the sign-in pages load neither MUI nor react-admin (src/public-ui/); react-admin comes with the admin shell chunk,
// and the admin messages (react-admin's `ra` and the admin areas) download alongside it.
const AdminApp = lazy(async () => {
  const [m] = await Promise.all([import('./admin/AdminApp.tsx'), loadAdminMessages()]);
  return { default: m.AdminApp };
});
const LoginPage = lazy(() => import('./pages/auth/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() =>
  import('./pages/auth/RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })),
);
const ResetPage = lazy(() => import('./pages/auth/ResetPage.tsx').then((m) => ({ default: m.ResetPage })));

/** The signed-out pages by path (matched as react-router would: any case, trailing slash or not). */
const PUBLIC_PAGES: Record<string, () => ReactNode> = {
  '/': () => <LoginPage />,
  '/login': () => <LoginPage />,
  '/register': () => <RegisterPage />,
  '/reset': () => <ResetPage />,
};
const ERROR_PAGES: Record<string, 403 | 500> = { '/error/403': 403, '/error/500': 500 };

/**
 * The top of spec section 2's route table: public pages, error pages, and the admin areas (/account,
 * /dashboard, /settings) which the admin shell routes itself. Any other path is "Page not found".
 * A switch on the path rather than react-router's `<Routes>`, so the signed-out start (src/PublicApp.tsx)
 * shares it without downloading react-router; `admin` replaces the admin shell there by what hands the page
 * over to the full app. The public pages share one guard and layout, mounted while moving between them, and
 * every admin area is one element, so moving between them keeps the admin shell mounted.
 */
export function AppRoutes({ admin }: { admin?: ReactNode } = {}) {
  const { pathname } = useNavigation().location;
  const path = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  const publicPage = PUBLIC_PAGES[path];
  const errorCode = ERROR_PAGES[path];
  let page: ReactNode;
  if (publicPage) {
    page = (
      <PublicGuard>
        <PublicLayout>{publicPage()}</PublicLayout>
      </PublicGuard>
    );
  } else if (errorCode) page = <ErrorPage key={errorCode} code={errorCode} />;
  else if (isAdminPath(pathname)) page = admin ?? <AdminApp />;
  else page = <ErrorPage key={404} code={404} />;
  return <Suspense fallback={<PublicLoading fullScreen />}>{page}</Suspense>;
}
