import { useEffect, useSyncExternalStore } from 'react';
import { httpClient } from './httpClient.ts';
import { usePageTitle } from './pageTitleStore.ts';
import type { SiteConfig, SystemStatus } from './siteConfig.ts';

/** How long an answer of GET /api/v1 counts as fresh (the staleTime of `siteQuery`). */
export const SITE_STATUS_STALE_MS = 60_000;

/**
 * The react-query cache, once the full app has loaded it (providers/queryClient.ts attaches it): from then on
 * answers come through `siteQuery`, and the cache tells this store about every new answer and removal.
 */
export interface SiteStatusCache {
  /** GET /api/v1 through the cache; rejects when the call fails. */
  load: () => Promise<SystemStatus>;
  /** Drops the cached answer, so the next load asks the server again. */
  forget: () => void;
}

interface Answer {
  status: SystemStatus;
  /** When it arrived (ms since the epoch). */
  at: number;
}

const EMPTY_CONFIG: SiteConfig = {};
const listeners = new Set<() => void>();
let latest: Answer | null = null;
let pending: Promise<SystemStatus> | null = null;
let cache: SiteStatusCache | null = null;

/**
 * GET /api/v1 (system status and site config) without react-query, for start-up and the signed-out pages,
 * which do not download it; through the react-query cache once one is attached. Never throws: a failed call
 * reads as "unavailable" (spec 7) and is not kept.
 *
 * @example
 * const { status, config } = await loadSiteStatus();
 */
export async function loadSiteStatus(): Promise<SystemStatus> {
  try {
    if (cache) return await cache.load();
    if (latest && Date.now() - latest.at < SITE_STATUS_STALE_MS) return latest.status;
    pending ??= httpClient<SystemStatus>('v1')
      .then((status) => {
        publishSiteStatus(status);
        return status;
      })
      .finally(() => {
        pending = null;
      });
    return await pending;
  } catch {
    return { status: 'unavailable', config: {} };
  }
}

/** Keeps an answer of GET /api/v1 (the react-query cache reports each of its own here). */
export function publishSiteStatus(status: SystemStatus, at = Date.now()): void {
  if (latest?.status === status && latest.at === at) return;
  latest = { status, at };
  listeners.forEach((listener) => listener());
}

/** Asks the server again on the next load (the "retry" of the server error page). */
export function forgetSiteStatus(): void {
  clearSiteStatus();
  cache?.forget();
}

/** Drops the kept answer only (the react-query cache reports a removal of its own this way). */
export function clearSiteStatus(): void {
  if (!latest) return;
  latest = null;
  listeners.forEach((listener) => listener());
}

/**
 * Makes the react-query cache the source of answers; returns the answer kept so far, which the cache takes
 * over so the full app does not ask again within SITE_STATUS_STALE_MS, or else the request still under way
 * (the cache waits for it rather than asking a second time: a cold load starts it before the full app has
 * downloaded).
 */
export function attachSiteStatusCache(next: SiteStatusCache): {
  kept: Answer | null;
  inFlight: Promise<SystemStatus> | null;
} {
  cache = next;
  return { kept: latest, inFlight: latest ? null : pending };
}

/**
 * The site config from GET /api/v1 without react-query (empty while loading or when the call failed): the
 * signed-out pages and the title of every page. Loads it when nothing is kept yet.
 */
export function usePublicSiteConfig(): SiteConfig {
  const answer = useSyncExternalStore(subscribe, currentAnswer);
  useEffect(() => {
    if (!answer) void loadSiteStatus();
  }, [answer]);
  return answer?.status.config ?? EMPTY_CONFIG;
}

/** Keeps document.title "<page> - <site name>" (the page as the layout's page header names it). */
export function useSiteTitle(): void {
  const { site_name: siteName } = usePublicSiteConfig();
  const page = usePageTitle();
  useEffect(() => {
    const title = [page, siteName].filter(Boolean).join(' - ');
    if (title) document.title = title;
  }, [page, siteName]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function currentAnswer(): Answer | null {
  return latest;
}
