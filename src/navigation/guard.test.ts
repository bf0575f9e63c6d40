import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '../providers/profile.ts';
import { runGuard } from './guard.ts';
import type { GuardInput } from './guard.ts';

const user: Profile = { id: '7', username: 'li' };
const staff: Profile = { ...user, staff: { id: '3', is_admin: 0, roles: [] } };

function input(overrides: Partial<GuardInput> = {}): GuardInput & { calls: string[] } {
  const calls: string[] = [];
  return {
    pathname: '/dashboard',
    access: { staff: true },
    loadStatus: vi.fn(async () => (calls.push('status'), 'ready')),
    loadStaffProfile: vi.fn(async () => (calls.push('staff'), staff)),
    loadUserProfile: vi.fn(async () => (calls.push('user'), user)),
    ...overrides,
    calls,
  };
}

describe('runGuard', () => {
  it('sends everyone to /error/500 when the system is not ready, before loading anyone', async () => {
    const args = input({ loadStatus: async () => 'maintenance', access: {} });
    expect(await runGuard(args)).toEqual({ type: 'redirect', to: '/error/500' });
    expect(args.loadStaffProfile).not.toHaveBeenCalled();
  });

  it('lets /error pages through without checking anything', async () => {
    const args = input({ pathname: '/error/500', loadStatus: async () => 'maintenance' });
    expect((await runGuard(args)).type).toBe('allow');
  });

  it('loads the staff profile for staff routes and allows a staff member', async () => {
    const args = input();
    expect(await runGuard(args)).toEqual({ type: 'allow', profile: staff });
    expect(args.calls).toEqual(['status', 'staff']);
  });

  it('redirects an anonymous visitor to /login with the intended address', async () => {
    const args = input({
      pathname: '/settings/staff',
      search: '?page=2',
      loadStaffProfile: async () => null,
      loadUserProfile: async () => null,
    });
    expect(await runGuard(args)).toEqual({
      type: 'redirect',
      to: '/login?href=%2Fsettings%2Fstaff%3Fpage%3D2',
    });
  });

  it('sends a visitor whose profile load gets no answer to /error/500, not to sign in', async () => {
    const args = input({
      loadStaffProfile: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await runGuard(args)).toEqual({ type: 'redirect', to: '/error/500' });
  });

  it('sends a signed-in non-staff user on a staff route to /error/403', async () => {
    const args = input({ loadStaffProfile: async () => user });
    expect(await runGuard(args)).toEqual({ type: 'redirect', to: '/error/403' });
  });

  it('only needs a user on signed-in routes', async () => {
    const args = input({ pathname: '/account/profile', access: { auth: true } });
    expect(await runGuard(args)).toEqual({ type: 'allow', profile: user });
    expect(args.calls).toEqual(['status', 'user']);
  });

  it('does not load anybody on public routes', async () => {
    const args = input({ pathname: '/login', access: {} });
    expect(await runGuard(args)).toEqual({ type: 'allow', profile: null });
    expect(args.calls).toEqual(['status']);
  });
});
