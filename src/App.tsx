import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './AppProviders.tsx';
import { queryClient } from './providers/queryClient.ts';
import { AppRoutes } from './AppRoutes.tsx';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The browser's router: a data router, because react-admin only blocks in-app navigation away from a form
 * with unsaved changes (`warnWhenUnsavedChanges`) under one. One catch-all route keeps the `<Routes>` tree of
 * AppRoutes as it is (tests render that tree under a MemoryRouter).
 *
 * @example
 * createRoot(container).render(<App router={createAppRouter()} />);
 */
export function createAppRouter(): AppRouter {
  return createBrowserRouter([{ path: '*', element: <AppShell /> }]);
}

/** The whole application in the browser. */
export function App({ router }: { router: AppRouter }) {
  return <RouterProvider router={router} />;
}

function AppShell() {
  return (
    <AppProviders client={queryClient}>
      <AppRoutes />
    </AppProviders>
  );
}
