import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person the test issuer knows: the login typed on its page is the subject. */
export interface IssuerAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface TestIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces a person the issuer signs in. */
  addAccount(account: IssuerAccount): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider, the certified Node implementation) on a free loopback port: one
 * confidential client whose redirect URIs are `redirectUris`, an in-memory account list, its own development
 * login page (any password; the login is the subject) and consent granted for the client up front, as a
 * company's provider does for a first-party application. Example:
 * `const idp = await startIssuer({ redirectUris: ['http://admin.test/api/v1/oidc/corp/callback'] })`.
 */
export async function startIssuer({ redirectUris }: { redirectUris: string[] }): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'admin-back-office';
  const clientSecret = 'test-client-secret-9f2c1d7e';
  const accounts = new Map<string, IssuerAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    cookies: { keys: ['oidc-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account }) };
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    addAccount(account) {
      accounts.set(account.sub, account);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Walks the provider's pages as a browser would without one: opens the authorisation URL, types `login` (and
 * any password) into the development login page and follows the redirects until one leaves the issuer.
 * Answers that address (our callback with code and state). Cookies of the issuer are kept along the way.
 */
export async function signInAtIssuer(authUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authUrl).origin;
  let url = new URL(authUrl);
  let body: URLSearchParams | null = null;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body: body.toString() } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    body = null;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200 || !html.includes('name="login"')) {
      throw new Error(`issuer answered ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    }
    // The development login page: the form posts back to the interaction.
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? url.pathname;
    url = new URL(action.replace(/&amp;/g, '&'), url);
    body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
  }
  throw new Error('the issuer never sent the browser back');
}
