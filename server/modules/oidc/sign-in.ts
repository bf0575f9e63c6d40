import type { Logger } from 'pino';
import { AppError } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';
import { type Client, finishSignIn, findUserById, recordActivity, type SignInResult } from '../auth/index.ts';
import { isSafePath } from '../wechat/index.ts';
import { createAccount } from './accounts.ts';
import { authorisationUrl, configurationOf, exchangeCode, OidcFailure, openidClient } from './client.ts';
import { findProvider, requireProvider } from './settings.ts';
import {
  createState,
  createTicket,
  findIdentity,
  insertIdentity,
  takeState,
  takeTicket,
  touchIdentity,
} from './store.ts';

/**
 * The OpenID Connect sign-in (issue 31, item 4), Fastify-free: the routes (routes.ts) own the cookie, the
 * redirects and the envelope. Example:
 * `const url = await startOidc(db, { providerId, origin, href, remember, browserNonce, bindUserId: null })`.
 */

/** Where the callback sends the browser when something went wrong: `/login?oidc_error=<reason>`. */
export type CallbackError =
  'state_invalid' | 'provider_rejected' | 'unavailable' | 'not_linked' | 'disabled' | 'already_linked';

/** The path of the provider's callback on this server (registered at the provider as the redirect URI). */
export function callbackPath(providerId: string): string {
  return `/api/v1/oidc/${encodeURIComponent(providerId)}/callback`;
}

/**
 * Starts an authorisation: a state bound to the browser, a nonce and a PKCE verifier stored, and the provider's
 * URL (discovered). `bindUserId` makes it a binding for that signed-in user. 404 for an unknown provider;
 * OidcFailure('unavailable') when the provider cannot be discovered.
 */
export async function startOidc(
  db: Db,
  input: {
    providerId: string;
    origin: string;
    href: string;
    remember: boolean;
    browserNonce: string;
    bindUserId: string | null;
  },
): Promise<string> {
  const provider = await requireProvider(db, input.providerId);
  const oidc = await openidClient();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  // Discovery first: an unreachable provider leaves no state behind.
  await configurationOf(provider).catch(() => {
    throw new OidcFailure('unavailable');
  });
  const redirectUri = new URL(callbackPath(provider.id), input.origin).href;
  const state = await createState(db, {
    provider_id: provider.id,
    code_verifier: codeVerifier,
    nonce,
    href: input.href && isSafePath(input.href) ? input.href : '',
    remember: input.remember,
    bind_user_id: input.bindUserId,
    browserNonce: input.browserNonce,
  });
  return authorisationUrl(provider, { redirectUri, state, nonce, codeVerifier });
}

/**
 * Finishes the provider's redirect back: spends the state (this browser's, this provider's), exchanges the code
 * (openid-client checks PKCE, the id_token's signature and the nonce), then binds the subject (a binding) or
 * finds or creates its account and stores a one-time ticket. Answers where to send the browser: never throws
 * for what the provider or the browser sent, so the user always lands on a page that says what happened.
 */
export async function finishOidcCallback(
  db: Db,
  {
    providerId,
    callbackUrl,
    browserNonce,
    client,
    log,
  }: {
    providerId: string;
    callbackUrl: URL;
    browserNonce: string | undefined;
    client: Client;
    log: Pick<Logger, 'warn'>;
  },
): Promise<string> {
  const stateParam = callbackUrl.searchParams.get('state') ?? '';
  const state = await takeState(db, { state: stateParam, browserNonce, providerId });
  const provider = state ? await findProvider(db, providerId) : null;
  if (!state || !provider) {
    await failed(db, { client, providerId, reason: 'state_invalid', userId: null });
    return loginError('state_invalid');
  }
  const back = (error: CallbackError) =>
    state.bind_user_id ? accountPath({ error }) : loginError(error, state.href);
  let claims;
  try {
    claims = await exchangeCode(provider, {
      callbackUrl,
      state: stateParam,
      nonce: state.nonce,
      codeVerifier: state.code_verifier,
    });
  } catch (error) {
    const reason = error instanceof OidcFailure ? error.reason : 'rejected';
    // The reason only: never the URL (code), the provider's body or a token.
    log.warn({ event: 'oidc.failed', provider: providerId, reason }, 'OpenID sign-in failed');
    await failed(db, { client, providerId, reason, userId: state.bind_user_id });
    return back(reason === 'unavailable' ? 'unavailable' : 'provider_rejected');
  }

  const identity = await findIdentity(db, claims);
  if (state.bind_user_id) {
    if (identity) return back('already_linked');
    try {
      await insertIdentity(db, {
        userId: state.bind_user_id,
        providerId: provider.id,
        issuer: claims.issuer,
        subject: claims.subject,
        email: claims.email,
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return back('already_linked');
      throw error;
    }
    await recordActivity(db, {
      client,
      action: 'auth.oidc_bind',
      operatorId: state.bind_user_id,
      subjectId: state.bind_user_id,
      changes: { provider: provider.id },
    });
    return accountPath({ bound: provider.id });
  }

  let userId: string;
  if (identity) {
    userId = identity.user_id;
    await touchIdentity(db, identity.id, claims.email);
  } else if (provider.auto_create) {
    userId = await createAccount(db, { provider, claims, client });
  } else {
    await failed(db, { client, providerId, reason: 'not_linked', userId: null });
    return back('not_linked');
  }
  const user = await findUserById(db, userId);
  if (!user?.state) {
    await failed(db, { client, providerId, reason: 'disabled', userId });
    return back('disabled');
  }
  const ticket = await createTicket(db, { userId, providerId: provider.id, remember: state.remember });
  const to = new URLSearchParams({ oidc_ticket: ticket });
  if (state.href) to.set('href', state.href);
  return `/login?${to}`;
}

/**
 * `POST v1/oidc/login { ticket }`: spends the ticket and signs in as any first factor does (`finishSignIn`: the
 * second step or the enrolment when the account needs one). 422 on `ticket` for an unknown, used or expired
 * ticket and for an account disabled since the callback.
 */
export async function signInWithTicket(
  db: Db,
  { ticket, client }: { ticket: string; client: Client },
): Promise<SignInResult> {
  const row = await takeTicket(db, ticket);
  const user = row ? await findUserById(db, row.user_id) : null;
  if (!row || !user?.state) {
    await failed(db, {
      client,
      providerId: row?.provider_id ?? null,
      reason: row ? 'disabled' : 'ticket_invalid',
      userId: row?.user_id ?? null,
    });
    throw AppError.validation({ ticket: ['auth.oidc.errors.ticket_invalid'] });
  }
  return finishSignIn(db, {
    userId: user.id,
    remember: row.remember,
    client,
    action: 'auth.login',
    changes: { method: 'oidc', provider: row.provider_id, remember: row.remember },
  });
}

function loginError(error: CallbackError, href = ''): string {
  const to = new URLSearchParams({ oidc_error: error });
  if (href) to.set('href', href);
  return `/login?${to}`;
}

function accountPath(result: { bound: string } | { error: CallbackError }): string {
  const to = new URLSearchParams(
    'bound' in result ? { oidc_bound: result.bound } : { oidc_error: result.error },
  );
  return `/account/security?${to}`;
}

async function failed(
  db: Db,
  {
    client,
    providerId,
    reason,
    userId,
  }: { client: Client; providerId: string | null; reason: string; userId: string | null },
): Promise<void> {
  await recordActivity(db, {
    client,
    action: 'auth.login_failed',
    operatorId: null,
    subjectId: userId,
    changes: { method: 'oidc', provider: providerId, reason },
  });
}
