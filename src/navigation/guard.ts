import type { Profile } from '../providers/profile.ts';

/** What a route asks of the visitor (spec 6 route levels). */
export interface RouteAccess {
  /** Signed-in user required. */
  auth?: boolean;
  /** Staff member required (implies auth). */
  staff?: boolean;
}

export type GuardResult = { type: 'allow'; profile: Profile | null } | { type: 'redirect'; to: string };

export interface GuardInput {
  /** Path plus query string of the intended address. */
  pathname: string;
  search?: string;
  access: RouteAccess;
  loadStatus: () => Promise<string>;
  loadStaffProfile: () => Promise<Profile | null>;
  loadUserProfile: () => Promise<Profile | null>;
}

/**
 * The route guard of spec section 4, step by step and in its order:
 * 1. status not ready -> /error/500; 2. staff route -> load the staff profile; 3. signed-in route -> load the
 * user; 4. no user id -> /login?href=<intended> (the navigation is cancelled); 5. staff route without staff id
 * -> /error/403. `/error/*` paths skip the guard entirely. A profile load that gets no answer at all (it
 * rejects rather than resolving with null) goes to /error/500.
 *
 * @example
 * const result = await runGuard({ pathname: '/dashboard', access: { staff: true }, ...loaders });
 */
export async function runGuard(input: GuardInput): Promise<GuardResult> {
  const { pathname, search = '', access } = input;
  if (isErrorPath(pathname)) return { type: 'allow', profile: null };

  if ((await input.loadStatus()) !== 'ready') return { type: 'redirect', to: '/error/500' };

  const needsStaff = Boolean(access.staff);
  const needsAuth = needsStaff || Boolean(access.auth);
  let profile: Profile | null = null;
  try {
    if (needsStaff) profile = await input.loadStaffProfile();
    if (needsAuth && !profile) profile = await input.loadUserProfile();
  } catch {
    // No answer about the profile (the server cannot be reached): the session may well be fine, so this is
    // the server-error page, not the sign-in page.
    return { type: 'redirect', to: '/error/500' };
  }

  if (needsAuth && !profile?.id) {
    return { type: 'redirect', to: `/login?href=${encodeURIComponent(pathname + search)}` };
  }
  if (needsStaff && !profile?.staff?.id) return { type: 'redirect', to: '/error/403' };
  return { type: 'allow', profile };
}

export function isErrorPath(pathname: string): boolean {
  return pathname === '/error' || pathname.startsWith('/error/');
}
