import { QueryClient } from '@tanstack/react-query';
import { clearProfile } from './profile.ts';
import { onSessionChange } from './session.ts';
import { siteKey, siteQuery } from './siteConfig.ts';
import type { SystemStatus } from './siteConfig.ts';
import { attachSiteStatusCache, clearSiteStatus, publishSiteStatus } from './siteStatus.ts';

/**
 * The app's single react-query cache. The guard, the header and the authProvider all read the profile and the
 * site config through it, so one request serves all of them. react-admin receives the same client.
 * The signed-out pages run without it (src/PublicApp.tsx): once it loads, it takes over their answer of
 * GET /api/v1 (providers/siteStatus.ts) and keeps that store up to date, and drops its profiles whenever a
 * sign-in there changes the session (providers/session.ts).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

const { kept, inFlight } = attachSiteStatusCache({
  load: () => queryClient.fetchQuery(siteQuery),
  forget: () => queryClient.removeQueries({ queryKey: siteKey }),
});
if (kept) queryClient.setQueryData(siteKey, kept.status, { updatedAt: kept.at });
// GET /api/v1 asked before this module loaded and not answered yet: the cache's query is that request, so
// the guard and the layouts wait for it instead of sending a second one.
else if (inFlight) void queryClient.prefetchQuery({ ...siteQuery, queryFn: () => inFlight });

queryClient.getQueryCache().subscribe((event) => {
  if (event.query.queryKey[0] !== siteKey[0]) return;
  if (event.type === 'removed') clearSiteStatus();
  else if (event.type === 'updated' && event.query.state.status === 'success') {
    publishSiteStatus(event.query.state.data as SystemStatus, event.query.state.dataUpdatedAt);
  }
});

onSessionChange(() => clearProfile(queryClient));
