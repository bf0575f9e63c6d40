import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { siteQuery } from './siteConfig.ts';
import type { SiteConfig } from './siteConfig.ts';

/** The site config from GET /api/v1 (empty while loading or when the call failed: spec 7 ignores failures). */
export function useSiteConfig(): SiteConfig {
  const { data } = useQuery(siteQuery);
  return data?.config ?? {};
}

/** Keeps document.title equal to the site name. */
export function useSiteTitle(): void {
  const { site_name: siteName } = useSiteConfig();
  useEffect(() => {
    if (siteName) document.title = siteName;
  }, [siteName]);
}
