/** The part of oidc-provider 9 (no bundled types) that tests/helpers/oidc-issuer.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  interface GrantConstructor {
    new (input: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      client: { clientId: string };
      session: { accountId: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: { Grant: GrantConstructor };
    };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
