import { useCallback, useMemo } from 'react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { NavigationProvider } from './navigation.tsx';
import type { NavigateOptions, Navigation } from './navigation.tsx';

/**
 * `useNavigation()` answered by react-router: the full app's data router, or a MemoryRouter in tests.
 *
 * @example
 * <MemoryRouter><RouterNavigation><LoginPage /></RouterNavigation></MemoryRouter>
 */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const routerNavigate = useNavigate();
  const navigate = useCallback(
    (to: string, options?: NavigateOptions) => void routerNavigate(to, options),
    [routerNavigate],
  );
  const value = useMemo<Navigation>(
    () => ({ location: { pathname, search }, navigate }),
    [pathname, search, navigate],
  );
  return <NavigationProvider value={value}>{children}</NavigationProvider>;
}
