import type { QueryClient } from '@tanstack/react-query';
import { httpClient } from './httpClient.ts';

export interface SiteConfig {
  site_name?: string;
  /** Logo address for the sign-in card (general settings, site tab); empty when none is set. */
  site_logo?: string;
  languages?: string[];
  currency?: string;
  decimals?: number;
  country?: string;
  /** WeChat official-account sign-in is on (login settings). */
  wechat?: boolean;
  /** OpenID Connect providers of the login settings: a button each on the sign-in page. */
  oidc_providers?: { id: string; label: string }[];
  /** The token cookie's scope (COOKIE_DOMAIN): `parent`, `host` or a domain. */
  cookie_domain?: string;
}

export interface SystemStatus {
  status: string;
  config: SiteConfig;
}

export const siteKey = ['site'] as const;

/** Query options of GET /api/v1, shared by the guard, start-up and the title/header hooks. */
export const siteQuery = {
  queryKey: siteKey,
  queryFn: ({ signal }: { signal?: AbortSignal }) => httpClient<SystemStatus>('v1', { signal }),
  staleTime: 60_000,
};

/** GET /api/v1: system status plus the site config. Never throws; a failed call reads as "unavailable". */
export async function loadSystemStatus(client: QueryClient): Promise<SystemStatus> {
  try {
    return await client.fetchQuery(siteQuery);
  } catch {
    return { status: 'unavailable', config: {} };
  }
}
