import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { useLogout } from 'react-admin';
import { LoadingState } from '../components/LoadingState.tsx';
import { AccountMenu } from '../layouts/AccountMenu.tsx';
import { MainLayout } from '../layouts/MainLayout.tsx';
import { STAFF_INCLUDE, fetchProfile, profileKey } from '../providers/profile.ts';
import { AdminLanguageSwitcher } from './AdminLanguageSwitcher.tsx';

/**
 * MainLayout wired to react-admin: its language switcher, its logout, and staff-only links. The layout of
 * /dashboard and /account, a chunk of its own (AdminApp loads it with those routes): the settings pages,
 * a list among them, have their own layout.
 */
export function MainShell({ children }: { children: ReactNode }) {
  const logout = useLogout();
  const { data } = useQuery({
    queryKey: profileKey(STAFF_INCLUDE),
    queryFn: ({ signal }) => fetchProfile(STAFF_INCLUDE, signal),
    staleTime: 5 * 60_000,
  });
  return (
    <MainLayout
      isStaff={Boolean(data?.staff?.id)}
      languageSwitcher={<AdminLanguageSwitcher />}
      accountMenu={<AccountMenu onLogout={() => void logout()} />}
    >
      <Suspense fallback={<LoadingState />}>{children}</Suspense>
    </MainLayout>
  );
}
