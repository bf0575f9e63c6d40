import type * as Oidc from 'openid-client';
import type { OidcProvider } from '../../../schemas/settings.ts';

/** How long one call to a provider (discovery, token, keys) may take. */
export const OIDC_TIMEOUT_MS = 5000;
/** A provider's discovered metadata is reused this long (a restart or a settings change starts afresh). */
const CACHE_MS = 10 * 60_000;

/** What the provider said about the person, from the checked id_token (and userinfo when it has more). */
export interface OidcClaims {
  subject: string;
  issuer: string;
  email: string | null;
  isEmailVerified: boolean;
  name: string | null;
  username: string | null;
}

/** Raised for anything the provider or its answer got wrong; `reason` goes to the log and activity, nothing else. */
export class OidcFailure extends Error {
  readonly reason: 'unavailable' | 'rejected' | 'nonce' | 'state';
  constructor(reason: OidcFailure['reason']) {
    super(`oidc ${reason}`);
    this.reason = reason;
  }
}

/** openid-client is imported on the first OpenID sign-in, not when the server starts (issue 37 item 3). */
export const openidClient = () => import('openid-client');

const cache = new Map<string, { at: number; config: Promise<Oidc.Configuration> }>();

/**
 * The provider's configuration (openid-client: issuer discovery, checked against the issuer named). http is
 * accepted only on loopback (schemas/settings.ts `isIssuerUrl`). Cached per issuer, client and secret.
 */
export function configurationOf(provider: OidcProvider): Promise<Oidc.Configuration> {
  const key = JSON.stringify([provider.issuer, provider.client_id, provider.client_secret]);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.config;
  const config = discover(provider);
  cache.set(key, { at: Date.now(), config });
  // A failed discovery is not kept: the next sign-in tries again.
  config.catch(() => cache.delete(key));
  return config;
}

/** The provider's authorisation URL with state, nonce and the PKCE challenge (S256). */
export async function authorisationUrl(
  provider: OidcProvider,
  input: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
): Promise<string> {
  const config = await configurationOf(provider);
  const oidc = await openidClient();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: provider.scopes.join(' '),
    state: input.state,
    nonce: input.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(input.codeVerifier),
    code_challenge_method: 'S256',
  });
  return url.href;
}

/**
 * Exchanges the code of the callback URL: openid-client checks the state, the PKCE verifier, the id_token's
 * signature, issuer, audience, expiry and nonce. Throws OidcFailure.
 */
export async function exchangeCode(
  provider: OidcProvider,
  input: { callbackUrl: URL; state: string; nonce: string; codeVerifier: string },
): Promise<OidcClaims> {
  const config = await configurationOf(provider).catch(() => {
    throw new OidcFailure('unavailable');
  });
  const oidc = await openidClient();
  let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
      pkceCodeVerifier: input.codeVerifier,
      expectedState: input.state,
      expectedNonce: input.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw classify(error);
  }
  const claims = tokens.claims();
  if (!claims) throw new OidcFailure('rejected');
  let extra: Record<string, unknown> = {};
  const wanted = provider.claim_username;
  if (tokens.access_token && (claims[wanted] === undefined || claims.email === undefined)) {
    // Many providers put profile claims in userinfo only; a failure there leaves the id_token's.
    extra = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => ({}));
  }
  const all = { ...extra, ...claims } as Record<string, unknown>;
  return {
    subject: claims.sub,
    issuer: claims.iss,
    email: text(all.email, 254),
    isEmailVerified: all.email_verified === true,
    name: text(all.name, 60),
    username: text(all[wanted], 60),
  };
}

async function discover(provider: OidcProvider): Promise<Oidc.Configuration> {
  const oidc = await openidClient();
  const issuer = new URL(provider.issuer);
  const options: Oidc.DiscoveryRequestOptions = { timeout: OIDC_TIMEOUT_MS / 1000 };
  if (issuer.protocol === 'http:') options.execute = [oidc.allowInsecureRequests];
  // client_secret_basic is the default method of the specification and every provider's; post where only it is.
  const config = await oidc.discovery(
    issuer,
    provider.client_id,
    provider.client_secret || undefined,
    provider.client_secret ? oidc.ClientSecretBasic(provider.client_secret) : oidc.None(),
    options,
  );
  const methods = config.serverMetadata().token_endpoint_auth_methods_supported;
  if (provider.client_secret && methods && !methods.includes('client_secret_basic')) {
    return oidc.discovery(
      issuer,
      provider.client_id,
      provider.client_secret,
      oidc.ClientSecretPost(provider.client_secret),
      options,
    );
  }
  return config;
}

/** openid-client's errors by what the user can be told: the provider is down, or it refused / sent garbage. */
function classify(error: unknown): OidcFailure {
  const code = (error as { code?: string }).code ?? '';
  const cause = (error as { cause?: unknown }).cause;
  const message = [error, cause].map((e) => (e instanceof Error ? e.message : '')).join(' ');
  if (/"nonce"/.test(message)) return new OidcFailure('nonce');
  if (/"state"/.test(message)) return new OidcFailure('state');
  if (code === 'OAUTH_TIMEOUT' || /fetch failed|ECONNREFUSED|aborted|timed? ?out/i.test(message))
    return new OidcFailure('unavailable');
  return new OidcFailure('rejected');
}

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;
}
