import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ReactNode } from 'react';
import { STAFF_INCLUDE, USER_INCLUDE, loadProfile } from '../providers/profile.ts';
import { loadSystemStatus } from '../providers/siteConfig.ts';
import { runGuard } from './guard.ts';
import type { RouteAccess } from './guard.ts';
import type { NavLocation } from './navigation.tsx';
import { GuardGate } from './PublicGuard.tsx';

export interface GuardProps extends RouteAccess {
  children: ReactNode;
}

/**
 * Runs the spec-4 guard on every navigation below it, with the profile and the status from the shared query
 * cache. Shows a loading state on the first check only: nested navigations keep the page on screen while
 * re-checking, so moving inside /settings does not flash. The signed-out pages use PublicGuard.
 *
 * @example
 * <Route path="/dashboard" element={<Guard staff><DashboardPage /></Guard>} />
 */
export function Guard({ auth, staff, children }: GuardProps) {
  const client = useQueryClient();
  const check = useCallback(
    ({ pathname, search }: NavLocation) =>
      runGuard({
        pathname,
        search,
        access: { auth, staff },
        loadStatus: async () => (await loadSystemStatus(client)).status,
        loadStaffProfile: () => loadProfile(client, STAFF_INCLUDE),
        loadUserProfile: () => loadProfile(client, USER_INCLUDE),
      }),
    [client, auth, staff],
  );
  return <GuardGate check={check}>{children}</GuardGate>;
}
