import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState.tsx';
import { STAFF_INCLUDE, USER_INCLUDE, loadProfile } from '../providers/profile.ts';
import { loadSystemStatus } from '../providers/siteConfig.ts';
import { runGuard } from './guard.ts';
import type { GuardResult, RouteAccess } from './guard.ts';

export interface GuardProps extends RouteAccess {
  children: ReactNode;
}

/**
 * Runs the spec-4 guard on every navigation below it. Shows a loading state on the first check only: nested
 * navigations keep the page on screen while re-checking, so moving inside /settings does not flash.
 *
 * @example
 * <Route path="/dashboard" element={<Guard staff><DashboardPage /></Guard>} />
 */
export function Guard({ auth, staff, children }: GuardProps) {
  const client = useQueryClient();
  const { pathname, search } = useLocation();
  const [result, setResult] = useState<GuardResult | null>(null);

  useEffect(() => {
    let isCurrent = true;
    void runGuard({
      pathname,
      search,
      access: { auth, staff },
      loadStatus: async () => (await loadSystemStatus(client)).status,
      loadStaffProfile: () => loadProfile(client, STAFF_INCLUDE),
      loadUserProfile: () => loadProfile(client, USER_INCLUDE),
    }).then((next) => {
      if (isCurrent) setResult(next);
    });
    return () => {
      isCurrent = false;
    };
  }, [client, pathname, search, auth, staff]);

  if (!result) return <LoadingState fullScreen />;
  if (result.type === 'redirect') return <Navigate to={result.to} replace />;
  return <>{children}</>;
}
