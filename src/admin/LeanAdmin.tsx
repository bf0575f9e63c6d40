import CssBaseline from '@mui/material/CssBaseline';
import { Suspense, lazy, useEffect, useState } from 'react';
import type { ComponentProps, ComponentType, ReactNode } from 'react';
import { AdminContext, CoreAdminUI, LoadingPage, useNotificationContext } from 'react-admin';
import type { CatchAllComponent, LayoutComponent } from 'react-admin';
import type * as ErrorViews from './errorViews.ts';

/**
 * One of react-admin's error pages, downloaded when it is shown (./errorViews.ts), with react-admin's
 * loading page meanwhile. Until then a working page does not carry their code.
 */
function lazyErrorView<K extends keyof typeof ErrorViews>(name: K) {
  const View = lazy(() =>
    import('./errorViews.ts').then((m) => ({ default: m[name] as ComponentType<object> })),
  );
  return function ErrorViewLoader(props: object) {
    return (
      <Suspense fallback={<LoadingPage />}>
        <View {...props} />
      </Suspense>
    );
  };
}

/**
 * react-admin's notifications, from a chunk of their own (./notification.ts: MUI's Snackbar) downloaded when
 * the first notice is queued (useNotify), then kept mounted. Until then no list or form shows one, so a page
 * does not download the snackbar to paint. A notice queued meanwhile waits in react-admin's queue, which the
 * snackbar takes from once it is there; a failed download is tried again when the queue changes (a render
 * error here would take the whole admin down).
 */
function LazyNotification() {
  const { notifications } = useNotificationContext();
  const [Notification, setNotification] = useState<ComponentType | null>(null);
  const queued = notifications.length;
  useEffect(() => {
    if (!queued || Notification) return;
    let isCurrent = true;
    import('./notification.ts').then(
      (m) => {
        if (isCurrent) setNotification(() => m.Notification);
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [queued, Notification]);
  return Notification ? <Notification /> : null;
}

const AccessDenied = lazyErrorView('AccessDenied');
const AuthenticationError = lazyErrorView('AuthenticationError');
const ErrorView = lazyErrorView('Error');

type ContextProps = ComponentProps<typeof AdminContext>;

/**
 * react-admin's `<Admin>` as the admin shell uses it: `AdminContext` (providers, store, theme) around
 * `CoreAdminUI` with the material pages react-admin's `AdminUI` gives by default, and its notifications (the
 * snackbar loads with the first one).
 *
 * Why not `<Admin>`: it references defaults this app never shows, and the bundler keeps all of them on the
 * first list page (issue 14 item 7, `npm run bench:bundle`): react-admin's default i18nProvider
 * (node-polyglot with its polyfills and the English messages: we always pass ra-i18n-i18next's), and
 * through `AdminUI` the default layout (app bar, sidebar, menu, user menu), the login page and form and the
 * auth-callback page. The shell is only mounted at /account, /dashboard and /settings, each route with its
 * own layout (`layout`), so `/login` and `/auth-callback` are never served here. Its error pages (a failed
 * screen, a refused permission, a failed authentication check) load when one is shown.
 *
 * @example
 * <LeanAdmin dataProvider={dataProvider} i18nProvider={i18nProvider} layout={PassThrough} catchAll={NotFound}>
 *   <CustomRoutes noLayout>...</CustomRoutes>
 * </LeanAdmin>
 */
export function LeanAdmin({
  authProvider,
  dataProvider,
  i18nProvider,
  queryClient,
  store,
  theme,
  layout,
  catchAll,
  children,
}: {
  authProvider: ContextProps['authProvider'];
  dataProvider: ContextProps['dataProvider'];
  i18nProvider: NonNullable<ContextProps['i18nProvider']>;
  queryClient: ContextProps['queryClient'];
  store: ContextProps['store'];
  theme: ContextProps['theme'];
  layout: LayoutComponent;
  catchAll: CatchAllComponent;
  children: ReactNode;
}) {
  return (
    <AdminContext
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={store}
      theme={theme}
    >
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          accessDenied={AccessDenied}
          authenticationError={AuthenticationError}
          catchAll={catchAll}
          error={ErrorView}
          layout={layout}
          loading={LoadingPage}
          loginPage={false}
          authCallbackPage={false}
          disableTelemetry
          title="React Admin"
        >
          {children}
        </CoreAdminUI>
        <LazyNotification />
      </CssBaseline>
    </AdminContext>
  );
}
