import type { AuthProvider } from 'react-admin';
import type { QueryClient } from '@tanstack/react-query';
import { httpClient, setDefaultHeader } from './httpClient.ts';
import { isHttpError } from './httpError.ts';
import { permissionsOf } from './permissions.ts';
import { STAFF_INCLUDE, clearProfile, loadProfile } from './profile.ts';
import { queryClient } from './queryClient.ts';
import { registerAccount, signIn } from './session.ts';
import type { LoginParams, RegisterParams } from './session.ts';
import { getToken, removeToken } from './token.ts';

export type { LoginParams, RegisterParams } from './session.ts';

/** Headers a policy switch may set; spec 4 says logout clears them. */
export const POLICY_HEADERS = ['Policy-Name', 'Policy-Id'] as const;

/**
 * Creates the react-admin AuthProvider over the contract's account calls. Profile reads go through the shared
 * react-query cache so the guard, the header and react-admin agree on who is signed in.
 *
 * @example
 * <Admin authProvider={createAuthProvider(queryClient)} />
 */
export function createAuthProvider(
  client: QueryClient,
): AuthProvider & { register(params: RegisterParams): Promise<void> } {
  return {
    async login(params: LoginParams) {
      // The sign-in page drives the second step itself (LoginPage); a bare login cannot finish one.
      if (await signIn(params)) throw new Error('mfa_required');
      clearProfile(client);
    },

    /** Registers and signs in (spec 7: "Login or register stores the token"), with a session cookie. */
    async register(params: RegisterParams) {
      await registerAccount(params);
      clearProfile(client);
    },

    async logout() {
      if (getToken()) {
        // Revoke on the server when possible; a failure must not keep the user signed in here.
        await httpClient('v1/user/logout', { method: 'POST' }).catch(() => undefined);
      }
      clearProfile(client);
      removeToken();
      for (const header of POLICY_HEADERS) setDefaultHeader(header, null);
      return '/login';
    },

    async checkAuth() {
      if (!getToken()) throw new Error('ra.auth.auth_check_error');
    },

    async checkError(error: unknown) {
      if (isHttpError(error) && error.status === 401) {
        removeToken();
        throw error;
      }
    },

    async getIdentity() {
      const profile = await loadProfile(client, STAFF_INCLUDE);
      if (!profile) throw new Error('ra.auth.auth_check_error');
      return {
        id: profile.id,
        fullName: profile.name || profile.username,
        avatar: profile.avatar ?? undefined,
      };
    },

    async getPermissions() {
      return permissionsOf(await loadProfile(client, STAFF_INCLUDE));
    },
  };
}

/** The app-wide instance, bound to the shared cache. */
export const authProvider = createAuthProvider(queryClient);
