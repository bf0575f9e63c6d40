import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { usePageTitle } from './pageTitleStore.ts';
import { siteQuery } from './siteConfig.ts';
import type { SiteConfig } from './siteConfig.ts';

/** The site config from GET /api/v1 (empty while loading or when the call failed: spec 7 ignores failures). */
export function useSiteConfig(): SiteConfig {
  const { data } = useQuery(siteQuery);
  return data?.config ?? {};
}

/** Keeps document.title "<page> - <site name>" (the page as the layout's page header names it). */
export function useSiteTitle(): void {
  const { site_name: siteName } = useSiteConfig();
  const page = usePageTitle();
  useEffect(() => {
    const title = [page, siteName].filter(Boolean).join(' - ');
    if (title) document.title = title;
  }, [page, siteName]);
}
