import { useQuery } from '@tanstack/react-query';
import { siteQuery } from './siteConfig.ts';
import type { SiteConfig } from './siteConfig.ts';

/**
 * The site config from GET /api/v1 through the react-query cache (empty while loading or when the call failed:
 * spec 7 ignores failures); observing the query, so an invalidation (settings saved) fetches it again. The
 * signed-out pages use usePublicSiteConfig (providers/siteStatus.ts), which needs no react-query.
 */
export function useSiteConfig(): SiteConfig {
  const { data } = useQuery(siteQuery);
  return data?.config ?? {};
}
