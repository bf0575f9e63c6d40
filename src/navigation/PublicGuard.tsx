import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { PublicLoading } from '../public-ui/controls.tsx';
import { loadSiteStatus } from '../providers/siteStatus.ts';
import { runGuard } from './guard.ts';
import type { GuardResult } from './guard.ts';
import { Redirect, useNavigation } from './navigation.tsx';
import type { NavLocation } from './navigation.tsx';

/**
 * Runs `check` on every navigation below it. Shows a loading state on the first check only: nested
 * navigations keep the page on screen while re-checking, so moving between pages does not flash.
 * `check` should keep its identity between renders (a module function or a useCallback).
 */
export function GuardGate({
  check,
  children,
}: {
  check: (location: NavLocation) => Promise<GuardResult>;
  children: ReactNode;
}) {
  const { pathname, search } = useNavigation().location;
  const [result, setResult] = useState<GuardResult | null>(null);

  useEffect(() => {
    let isCurrent = true;
    void check({ pathname, search }).then((next) => {
      if (isCurrent) setResult(next);
    });
    return () => {
      isCurrent = false;
    };
  }, [check, pathname, search]);

  if (!result) return <PublicLoading fullScreen />;
  if (result.type === 'redirect') return <Redirect to={result.to} />;
  return <>{children}</>;
}

/**
 * The spec-4 guard of the signed-out pages (sign-in, register, reset): anyone may open them, so only the
 * system status is checked, through providers/siteStatus.ts (no react-query on these pages).
 *
 * @example
 * <PublicGuard><PublicLayout><LoginPage /></PublicLayout></PublicGuard>
 */
export function PublicGuard({ children }: { children: ReactNode }) {
  return <GuardGate check={checkPublic}>{children}</GuardGate>;
}

function checkPublic({ pathname, search }: NavLocation): Promise<GuardResult> {
  return runGuard({
    pathname,
    search,
    access: {},
    loadStatus: async () => (await loadSiteStatus()).status,
    // A route anyone may open never asks who is signed in.
    loadStaffProfile: () => Promise.resolve(null),
    loadUserProfile: () => Promise.resolve(null),
  });
}
