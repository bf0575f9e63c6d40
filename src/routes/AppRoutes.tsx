import { Suspense, lazy } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState.tsx';
import { loadAdminMessages } from '../i18n/i18n.ts';
import { PublicLayout } from '../layouts/PublicLayout.tsx';
import { ErrorPage } from '../pages/errors/ErrorPage.tsx';
import { Guard } from './Guard.tsx';
import { isAdminPath } from './paths.ts';

// Route-level code splitting: the sign-in pages load MUI only; react-admin comes with the admin shell chunk,
// and the admin messages (react-admin's `ra` and the admin areas) download alongside it.
const AdminApp = lazy(async () => {
  const [m] = await Promise.all([import('../admin/AdminApp.tsx'), loadAdminMessages()]);
  return { default: m.AdminApp };
});
const LoginPage = lazy(() => import('../pages/auth/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() =>
  import('../pages/auth/RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })),
);
const ResetPage = lazy(() => import('../pages/auth/ResetPage.tsx').then((m) => ({ default: m.ResetPage })));

/**
 * The top of spec section 2's route table: public pages, error pages, and the admin areas (/account,
 * /dashboard, /settings) which the admin shell routes itself. Any other path is "Page not found".
 */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingState fullScreen />}>
      <Routes>
        <Route
          element={
            <Guard>
              <PublicLayout />
            </Guard>
          }
        >
          <Route index element={<LoginPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="reset" element={<ResetPage />} />
          <Route path="register" element={<RegisterPage />} />
        </Route>
        <Route path="error/403" element={<ErrorPage code={403} />} />
        <Route path="error/500" element={<ErrorPage code={500} />} />
        <Route path="*" element={<AdminOrNotFound />} />
      </Routes>
    </Suspense>
  );
}

/** One route element for every admin area, so moving between them keeps the admin shell mounted. */
function AdminOrNotFound() {
  const { pathname } = useLocation();
  return isAdminPath(pathname) ? <AdminApp /> : <ErrorPage code={404} />;
}
